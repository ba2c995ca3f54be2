import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Remembered page totals of settled days. `totalElements` of a journal or history day page
 * counted every row of the day on each call (95-150 ms at 250 000-1 000 000 rows, while the page itself
 * takes under a millisecond). A settled day (`isSettledDay`) gets no new rows, so its total per filter
 * is counted once and kept here.
 *
 * Rows of a past day still disappear by deletion (a resource deleted takes its requests with it). Every
 * DELETE on either table bumps `accounts.past_rows_version` in the deleting transaction, by trigger, so
 * no code path (nor a hand-written DELETE) can forget it; a remembered total is valid only with the
 * version it was counted with. The count and the version it is stored with are read by one statement,
 * so from one snapshot: a total counted before a deletion committed carries the older version.
 */
export class SettledDayTotals1764400000000 implements MigrationInterface {
  name = 'SettledDayTotals1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN past_rows_version bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE settled_day_totals (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        list text NOT NULL CHECK (list IN ('journal', 'history')),
        day date NOT NULL,
        filter text NOT NULL,
        version bigint NOT NULL,
        total integer NOT NULL CHECK (total >= 0),
        PRIMARY KEY (account_id, list, day, filter)
      )`);
    // statement-level with a transition table: a deletion of many rows bumps each account once
    await q.query(`
      CREATE FUNCTION accounts_past_rows_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE accounts a SET past_rows_version = a.past_rows_version + 1
          WHERE a.id IN (SELECT DISTINCT account_id FROM deleted_rows);
        RETURN NULL;
      END $$`);
    for (const table of ['access_requests', 'journal_events']) {
      await q.query(
        `CREATE TRIGGER ${table}_past_rows_deleted AFTER DELETE ON ${table} REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION accounts_past_rows_deleted()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['access_requests', 'journal_events']) await q.query(`DROP TRIGGER ${table}_past_rows_deleted ON ${table}`);
    await q.query(`DROP FUNCTION accounts_past_rows_deleted()`);
    await q.query(`DROP TABLE settled_day_totals`);
    await q.query(`ALTER TABLE accounts DROP COLUMN past_rows_version`);
  }
}
