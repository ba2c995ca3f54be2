import { MigrationInterface, QueryRunner } from 'typeorm';

/** The functions whose statements run on a kept generic plan (`plan_cache_mode = force_generic_plan`). */
const GENERIC_PLAN_FUNCTIONS = [
  'users_page_with_details(uuid, integer, integer)',
  'journal_day_page_counting_total(uuid, timestamptz, timestamptz, text[], text[], boolean[], text, integer, integer)',
  'journal_day_page_remembered_total(uuid, timestamptz, timestamptz, text[], text[], boolean[], text, integer, integer, date, text)',
  'history_day_page_counting_total(uuid, timestamptz, timestamptz, text, integer, integer)',
  'history_day_page_remembered_total(uuid, timestamptz, timestamptz, text, integer, integer, date, text)',
];

/**
 * `jit = off` for the functions that keep a generic plan. A generic plan cannot cost its LIMIT and
 * OFFSET and assumes a tenth of the rows (users_page_with_details: 1.1 million against the 100 users
 * read), which is above PostgreSQL's JIT thresholds (`jit_above_cost` 100 000, inlining and
 * optimisation from 500 000). On a server built with LLVM (Debian's and most distributions'
 * packages; the embedded PostgreSQL has none) every `GET /users` page was compiled anew, 74 functions
 * with inlining and optimisation: 1.5–2.5 s a page instead of under 2 ms, and the statement timeout
 * under load. These are statements of a few milliseconds, which JIT never speeds up. Set on the
 * function, so it also holds behind PgBouncer (a connection option would not); nothing else changes.
 */
export class KeptPlansWithoutJit1767000000000 implements MigrationInterface {
  name = 'KeptPlansWithoutJit1767000000000';

  async up(q: QueryRunner): Promise<void> {
    for (const fn of GENERIC_PLAN_FUNCTIONS) await q.query(`ALTER FUNCTION ${fn} SET jit = off`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const fn of GENERIC_PLAN_FUNCTIONS) await q.query(`ALTER FUNCTION ${fn} RESET jit`);
  }
}
