import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access requests created per resource in the current one-minute window: in the database,
 * so that every instance of the API counts against one limit. One row per resource, rewritten in
 * place (no row per request).
 */
export class AccessRequestRates1764600000001 implements MigrationInterface {
  name = 'AccessRequestRates1764600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE access_request_rates (
        resource_id uuid PRIMARY KEY REFERENCES resources(id) ON DELETE CASCADE,
        window_started_at timestamptz NOT NULL,
        created integer NOT NULL CHECK (created > 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE access_request_rates`);
  }
}
