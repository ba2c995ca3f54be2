import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partial index `wrong_code_streaks_locked (account_id, user_id) WHERE locked_until IS NOT NULL`
 * repeated the primary key's `(account_id, user_id)` prefix, which already finds a user's few rows for
 * the users list, and cost one more index write per wrong code.
 */
export class DropWrongCodeStreaksLocked1764750000001 implements MigrationInterface {
  name = 'DropWrongCodeStreaksLocked1764750000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX wrong_code_streaks_locked`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX wrong_code_streaks_locked ON wrong_code_streaks (account_id, user_id) WHERE locked_until IS NOT NULL`);
  }
}
