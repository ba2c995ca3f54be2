import { createServer, Server, Socket } from 'node:net';
import { QueryFailedError } from 'typeorm';
import { createDataSource } from './data-source';
import { databaseUnavailableCode } from './database-unavailable';

/** A server that accepts TCP connections and never answers: a frozen PostgreSQL. */
async function blackhole(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('databaseUnavailableCode', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'ECONNREFUSED'],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'ECONNRESET'],
    [
      'an administrator shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      '57P01',
    ],
    ['a server starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), '57P03'],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' }), '53300'],
    ['a statement timeout', Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), '57014'],
    ['a connection failure', Object.assign(new Error('connection failure'), { code: '08006' }), '08006'],
    [
      'a database refusing connections',
      Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' }),
      '55000',
    ],
    ['the pool waiting too long', new Error('timeout exceeded when trying to connect'), 'POOL_ACQUIRE_TIMEOUT'],
    ['a connect timeout', new Error('Connection terminated due to connection timeout'), 'CONNECT_TIMEOUT'],
    ['a lost connection', new Error('Connection terminated unexpectedly'), 'CONNECTION_TERMINATED'],
    ['a client-side query timeout', new Error('Query read timeout'), 'QUERY_TIMEOUT'],
    ['every address refusing', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), 'ECONNREFUSED'],
    [
      'a query failure wrapping one',
      new QueryFailedError('SELECT 1', [], Object.assign(new Error('terminating connection'), { code: '57P01' })),
      '57P01',
    ],
    ['a cause', new Error('outer', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }), 'ECONNREFUSED'],
  ])('%s is an outage', (_, error, code) => {
    expect(databaseUnavailableCode(error)).toBe(code);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['another 55000', Object.assign(new Error('lastval is not yet defined in this session'), { code: '55000' })],
    ['a syntax error', new QueryFailedError('SELEC 1', [], Object.assign(new Error('syntax error'), { code: '42601' }))],
    ['a wrong password', Object.assign(new Error('password authentication failed'), { code: '28P01' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_, error) => {
    expect(databaseUnavailableCode(error)).toBeUndefined();
  });

  describe('a server that accepts connections and never answers', () => {
    let server: Awaited<ReturnType<typeof blackhole>>;
    beforeAll(async () => {
      server = await blackhole();
    });
    afterAll(() => server.close());

    it('makes connecting fail within the connect timeout, as an outage', async () => {
      const dataSource = createDataSource({
        url: `postgres://postgres@127.0.0.1:${server.port}/frozen`,
        timeouts: { connectTimeoutMs: 200, statementTimeoutMs: 200 },
      });
      // jest's timeout (5 s) is the bound: without connectTimeoutMs this never settles
      const failure = await dataSource.initialize().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(databaseUnavailableCode(failure)).toMatch(/^(CONNECT_TIMEOUT|POOL_ACQUIRE_TIMEOUT)$/);
    });
  });
});
