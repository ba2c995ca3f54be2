import { backoffDelayMs, connectWithRetry, DatabaseUnreachable, describeDatabase, provisioningHint, startupFailureLine } from './startup';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('start-up', () => {
  describe('connectWithRetry', () => {
    function harness(failures: unknown[]) {
      const slept: number[] = [];
      const retries: unknown[] = [];
      let calls = 0;
      const connect = async () => {
        const failure = failures[calls++];
        if (failure) throw failure;
        return 'connected';
      };
      const run = (attempts: number) =>
        connectWithRetry(connect, { attempts, sleep: async (ms) => void slept.push(ms), onRetry: (info) => retries.push(info) });
      return { run, slept, retries, calls: () => calls };
    }

    it('retries an unreachable database with back-off doubling from 0.5 s to at most 8 s, one report per retry', async () => {
      const h = harness([refused(), refused(), refused(), refused(), refused(), refused()]);
      expect(await h.run(10)).toBe('connected');
      expect(h.slept).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
      expect(h.retries[0]).toEqual({ attempt: 1, attempts: 10, delayMs: 500, reason: 'ECONNREFUSED' });
      expect(h.retries).toHaveLength(6);
    });

    it('gives up after the last attempt, without waiting after it', async () => {
      const h = harness(Array.from({ length: 5 }, refused));
      await expect(h.run(3)).rejects.toEqual(new DatabaseUnreachable(3, 'ECONNREFUSED'));
      expect(h.calls()).toBe(3);
      expect(h.slept).toEqual([500, 1000]);
    });

    it.each([
      ['a timeout of node-postgres', new Error('Connection terminated due to connection timeout'), 'CONNECT_TIMEOUT'],
      ['a server restarting', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), '57P01'],
      ['PostgreSQL still starting', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), '57P03'],
      ['localhost refusing on ::1 and 127.0.0.1', Object.assign(new AggregateError([refused(), refused()]), {}), 'ECONNREFUSED'],
    ])('counts %s as unreachable', async (_what, error, reason) => {
      const h = harness([error]);
      expect(await h.run(2)).toBe('connected');
      expect(h.retries).toEqual([expect.objectContaining({ reason })]);
    });

    it('does not retry what no wait fixes (a wrong password, a setting a pooler refuses), nor our own errors', async () => {
      const wrongPassword = Object.assign(new Error('password authentication failed for user "x"'), { code: '28P01' });
      const h = harness([wrongPassword]);
      await expect(h.run(10)).rejects.toBe(wrongPassword);
      expect(h.slept).toEqual([]);
      const pooler = Object.assign(new Error('unsupported startup parameter: statement_timeout'), { code: '08P01' });
      await expect(harness([pooler]).run(10)).rejects.toBe(pooler);
      const bug = new TypeError('x is not a function');
      await expect(harness([bug]).run(10)).rejects.toBe(bug);
    });

    it('caps the delay', () => {
      expect([0, 1, 2, 3, 4, 5, 20].map(backoffDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    });
  });

  describe('provisioningHint', () => {
    it('names npm run cli in a checkout, where the npm scripts are', () => {
      expect(provisioningHint(undefined)).toBe(
        'No account yet. Create one with: npm run --silent cli -- account create --name "My company" --owner-email you@example.com --enable-api --json',
      );
    });

    it('names the command TWOFOLD_CLI_COMMAND gives where there are no npm scripts (the container image)', () => {
      expect(provisioningHint('docker compose exec api node dist/apps/cli/main.js')).toBe(
        'No account yet. Create one with: docker compose exec api node dist/apps/cli/main.js account create --name "My company" --owner-email you@example.com --enable-api --json',
      );
    });
  });

  describe('startupFailureLine', () => {
    const context = { port: 3000, databaseUrl: 'postgres://twofold:s3cret@db.internal:6432/twofold' };

    it('says that the port is in use and what to set', () => {
      const busy = Object.assign(new Error('listen EADDRINUSE: address already in use :::3000'), { code: 'EADDRINUSE' });
      expect(startupFailureLine(busy, context)).toBe('port 3000 is in use; set PORT to a free port or stop the process that holds it');
    });

    it('names the unreachable database without its credentials', () => {
      const line = startupFailureLine(new DatabaseUnreachable(10, 'ECONNREFUSED'), context);
      expect(line).toBe(
        'cannot reach the database at db.internal:6432/twofold (ECONNREFUSED) after 10 attempt(s); check DATABASE_URL and that PostgreSQL is running (DATABASE_START_ATTEMPTS sets the attempts)',
      );
      expect(line).not.toContain('s3cret');
      expect(describeDatabase(undefined)).toBe('the embedded PostgreSQL');
    });

    it('explains a refused password or a missing database', () => {
      expect(startupFailureLine(Object.assign(new Error('x'), { code: '3D000' }), context)).toBe(
        'cannot use the database at db.internal:6432/twofold: the database does not exist; check DATABASE_URL',
      );
    });

    it('names the setting a connection pooler in front of PostgreSQL refuses, and where it is let through', () => {
      // what PgBouncer answers a pool that sets statement_timeout at connect (DATABASE_STATEMENT_TIMEOUT_MS)
      const refusal = Object.assign(new Error('unsupported startup parameter: statement_timeout'), { code: '08P01' });
      expect(startupFailureLine(refusal, context)).toBe(
        'cannot use the database at db.internal:6432/twofold: a connection pooler in front of PostgreSQL refuses the connection setting statement_timeout; add it to ignore_startup_parameters in pgbouncer.ini and set it on the database role instead (docs/operations/scaling.md)',
      );
    });

    it('leaves anything else to the stack trace', () => {
      expect(startupFailureLine(new TypeError('bug'), context)).toBeUndefined();
    });
  });
});
