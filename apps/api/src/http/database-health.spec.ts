import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { DataSource } from 'typeorm';
import { DatabaseHealth } from './database-health';

/** A pool as pg-pool emits its events, behind a DataSource as TypeORM's postgres driver holds it. */
function watchedPool(health: DatabaseHealth): EventEmitter {
  const pool = new EventEmitter();
  health.watch({ driver: { master: pool } } as unknown as DataSource);
  return pool;
}

describe('DatabaseHealth: one line when the database stops answering, one when it is back', () => {
  let errors: jest.SpyInstance;
  let logs: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    logs = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const poolExhausted = () => new Error('timeout exceeded when trying to connect');
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it('says an exhausted pool is one (not that the database is down), and is back at the next connection handed out', () => {
    const health = new DatabaseHealth();
    const pool = watchedPool(health);
    expect(health.failed(poolExhausted())).toBe('POOL_ACQUIRE_TIMEOUT');
    expect(health.failed(poolExhausted())).toBe('POOL_ACQUIRE_TIMEOUT');
    expect(health.isAvailable).toBe(false);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0][1])).toMatch(/^no database connection free within the connect timeout/);

    pool.emit('acquire', {});
    expect(health.isAvailable).toBe(true);
    expect(logs).toHaveBeenCalledWith({ code: 'POOL_ACQUIRE_TIMEOUT', failures: 2 }, 'database available again');
  });

  it('keeps a server that refused connections unavailable until a new connection is made, whatever the pool hands out', () => {
    const health = new DatabaseHealth();
    const pool = watchedPool(health);
    expect(health.failed(refused())).toBe('ECONNREFUSED');
    expect(String(errors.mock.calls[0][1])).toBe('database unavailable: answering 503 until it is back');

    // a connection opened before the outage proves nothing about the server now
    pool.emit('acquire', {});
    expect(health.isAvailable).toBe(false);
    pool.emit('connect', {});
    expect(health.isAvailable).toBe(true);
  });

  it('logs nothing for an error that is not an outage', () => {
    const health = new DatabaseHealth();
    expect(health.failed(new Error('duplicate key value violates unique constraint'))).toBeUndefined();
    expect(health.isAvailable).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });
});
