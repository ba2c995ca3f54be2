import { AccountId } from '@twofold/domain';
import { AccountsRepository, UserMergesRepository } from '@twofold/persistence';
import { newUser } from '@twofold/persistence/testing';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { ApplyProgress, ApplyProgressRegistry, ApplyProgressView } from './identity-format-progress';
import { IdentityFormatService } from './identity-format.service';

/**
 * The identity format's dry run (what the apply would do, nothing changed) and the apply's progress
 * (a caller-chosen id, read while the apply runs).
 */
describe('identity format: dry run and progress of the apply', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.db.manager().query(text, params);
  const minutesAfter = (minutes: number) => new Date(t.clock.now().getTime() + minutes * 60_000);

  /** CORP\Jane (oldest), jane@corp.example, JANE: one user `jane`; CORP\Bob renamed `bob`; carol stays; `CORP\` has nothing left. */
  async function accountWithDuplicates() {
    const created = await t.newAccount();
    const accountId = created.account.id;
    await newUser(t.db, accountId, 'CORP\\Jane', { now: minutesAfter(-10) });
    await newUser(t.db, accountId, 'jane@corp.example', { now: minutesAfter(-9) });
    await newUser(t.db, accountId, 'JANE', { now: minutesAfter(-8) });
    await newUser(t.db, accountId, 'CORP\\Bob', { now: minutesAfter(-7) });
    await newUser(t.db, accountId, 'carol', { now: minutesAfter(-6) });
    await newUser(t.db, accountId, 'CORP\\', { now: minutesAfter(-5) });
    return { accountId, authorization: created.authorization };
  }

  const identitiesOf = async (accountId: AccountId) =>
    (await sql<{ identity: string }>(`SELECT identity FROM users WHERE account_id = $1 ORDER BY identity`, [accountId])).map(
      (row) => row.identity,
    );

  it('tells what the apply then does, changing nothing and journaling nothing', async () => {
    const { accountId, authorization } = await accountWithDuplicates();
    const before = await identitiesOf(accountId);
    const asIs = await t.as(authorization).get('/settings/identity-format/dry-run').expect(200);
    expect(asIs.body.model).toEqual({ format: 'AsIs', users: 6, renamedCount: 0, mergedCount: 0, renamed: [], merged: [], conflicts: [] });

    // a format's effect before it is set
    const login = await t.as(authorization).get('/settings/identity-format/dry-run?format=login').expect(200);
    expect(login.body.model).toEqual({
      format: 'Login',
      users: 6,
      renamedCount: 2,
      mergedCount: 2,
      renamed: [
        { from: 'CORP\\Jane', to: 'jane' },
        { from: 'CORP\\Bob', to: 'bob' },
      ],
      merged: [{ into: 'jane', from: ['jane@corp.example', 'JANE'] }],
      conflicts: [],
    });
    expect(await identitiesOf(accountId)).toEqual(before);
    expect(await journalOfToday(t, authorization, 'object=Accounts&action=RenameAndRemoveDuplicates')).toEqual([]);

    await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
    const planned = (await t.as(authorization).get('/settings/identity-format/dry-run').expect(200)).body.model;
    expect(planned).toEqual(login.body.model);
    const applied = await t.as(authorization).post('/settings/identity-format/apply').expect(200);
    expect(applied.body.model).toEqual({ renamed: planned.renamed, merged: planned.merged });
    expect(await identitiesOf(accountId)).toEqual(['bob', 'carol', 'CORP\\', 'jane'].sort());
    const after = (await t.as(authorization).get('/settings/identity-format/dry-run').expect(200)).body.model;
    expect([after.users, after.renamedCount, after.mergedCount]).toEqual([4, 0, 0]);
  });

  it('lists the merges the apply would refuse, and the apply refuses them', async () => {
    const { accountId, authorization } = await accountWithDuplicates();
    const [older, younger] = await sql<{ id: string }>(
      `SELECT id FROM users WHERE account_id = $1 AND identity IN ('CORP\\Jane', 'JANE') ORDER BY created_at`,
      [accountId],
    );
    for (const [user, prefix] of [
      [older.id, 'a'],
      [younger.id, 'b'],
    ]) {
      await sql(`INSERT INTO custom_fields (account_id, user_id, name, value) SELECT $1, $2, $3 || n, 'v' FROM generate_series(1, 60) n`, [
        accountId,
        user,
        prefix,
      ]);
    }
    const planned = (await t.as(authorization).get('/settings/identity-format/dry-run?format=Login').expect(200)).body.model;
    expect(planned.conflicts).toEqual([{ into: 'jane', customFields: 120 }]);

    await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
    const refused = await t.as(authorization).post('/settings/identity-format/apply').expect(400);
    expect(refused.body.message).toBe(
      'The users merged into "jane" would have 120 custom fields; a user can have at most 100. Remove some first; nothing was changed.',
    );
  });

  it('refuses an unknown format', async () => {
    const { authorization } = await accountWithDuplicates();
    const res = await t.as(authorization).get('/settings/identity-format/dry-run?format=Upn').expect(400);
    expect(res.body.message).toBe('format must be "AsIs" or "Login".');
  });

  describe('progress', () => {
    /** The service with batches of `perStatement` users, and every view of `progress` after each advance. */
    function serviceInBatches(perStatement: number) {
      const registry = new ApplyProgressRegistry(t.clock);
      const service = new IdentityFormatService(
        new AccountsRepository(t.db),
        new UserMergesRepository(t.db, perStatement),
        t.cipher,
        registry,
        t.db,
      );
      return { registry, service };
    }

    function recordAdvances(): { views: ApplyProgressView[]; restore(): void } {
      const views: ApplyProgressView[] = [];
      const advance = ApplyProgress.prototype.advance;
      const spy = jest.spyOn(ApplyProgress.prototype, 'advance').mockImplementation(function (this: ApplyProgress, users: number) {
        advance.call(this, users);
        views.push(this.read());
      });
      return { views, restore: () => spy.mockRestore() };
    }

    it('counts the rows written batch by batch, and is done once committed', async () => {
      const created = await t.newAccount();
      const accountId = created.account.id;
      // 5 users merged into `jane`, 4 renamed users: 2 × 5 merged + 5 survivors written
      await newUser(t.db, accountId, 'CORP\\Jane', { now: minutesAfter(-20) });
      for (let i = 1; i <= 5; i++) await newUser(t.db, accountId, `jane@d${i}.example`, { now: minutesAfter(-20 + i) });
      for (let i = 1; i <= 4; i++) await newUser(t.db, accountId, `CORP\\User${i}`, { now: minutesAfter(-10 + i) });
      await t.as(created.authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
      const { registry, service } = serviceInBatches(2);
      const id = '0b7e4c1a-5d2f-4e8a-9c3b-1f2e3d4c5b6a';
      const recorded = recordAdvances();
      let beforeCommit: ApplyProgressView | null = null;
      try {
        await t.db.transaction(async () => {
          await service.apply(accountId, id);
          beforeCommit = registry.read(accountId, id);
        });
      } finally {
        recorded.restore();
      }
      const done = recorded.views.map((view) => view.done);
      // the 5 merged users move in one batch (one survivor), are deleted 2, 2, 1, and the 5 survivors updated 2, 2, 1
      expect(done).toEqual([5, 7, 9, 10, 12, 14, 15]);
      expect(recorded.views.every((view) => view.state === 'writing' && view.total === 15)).toBe(true);
      expect(beforeCommit).toEqual({ id, state: 'writing', done: 15, total: 15 });
      expect(registry.read(accountId, id)).toEqual({ id, state: 'done', done: 15, total: 15 });
      // another account does not see it
      expect(registry.read((await t.newAccount()).account.id, id)).toBeNull();
    });

    it('is failed when the apply rolls back, and never counted past its total', async () => {
      const created = await t.newAccount();
      const accountId = created.account.id;
      await newUser(t.db, accountId, 'CORP\\Jane', { now: minutesAfter(-2) });
      await newUser(t.db, accountId, 'jane', { now: minutesAfter(-1) });
      await t.as(created.authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
      const { registry, service } = serviceInBatches(1_000);
      const id = '1c8f5d2b-6e3a-4f9b-8d4c-2a3b4c5d6e7f';
      await expect(
        t.db.transaction(async () => {
          await service.apply(accountId, id);
          throw new Error('something after the apply failed');
        }),
      ).rejects.toThrow('something after the apply failed');
      expect(registry.read(accountId, id)).toEqual({ id, state: 'failed', done: 3, total: 3 });
      expect(await identitiesOf(accountId)).toEqual(['CORP\\Jane', 'jane']);

      // the same id again: the new apply's figures, not the old one's
      await t.db.transaction(() => service.apply(accountId, id));
      expect(registry.read(accountId, id)).toEqual({ id, state: 'done', done: 3, total: 3 });
      const someoneElse = (await t.newAccount()).account.id;
      expect(registry.begin(someoneElse, id)).toBeNull();
      expect(registry.read(someoneElse, id)).toBeNull();

      const progress = new ApplyProgress(id);
      expect(progress.read()).toEqual({ id, state: 'planning', done: 0, total: null });
      progress.planned(2);
      progress.advance(5);
      expect(progress.read().done).toBe(2);
    });

    it('is read over the API by the account that started the apply, by the id it chose', async () => {
      const { authorization } = await accountWithDuplicates();
      const other = await t.newAccount();
      await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
      const id = '2d9a6e3c-7f4b-4a0c-9e5d-3b4c5d6e7f80';
      await t.as(authorization).get(`/settings/identity-format/apply/${id}`).expect(404);
      await t.as(authorization).post(`/settings/identity-format/apply?progressId=${id}`).expect(200);
      const res = await t.as(authorization).get(`/settings/identity-format/apply/${id}`).expect(200);
      // 2 merged users moved and deleted, jane and bob updated
      expect(res.body.model).toEqual({ id, state: 'done', done: 6, total: 6 });
      await t.as(other.authorization).get(`/settings/identity-format/apply/${id}`).expect(404);
      const refused = await t.as(authorization).post('/settings/identity-format/apply?progressId=not-a-uuid').expect(400);
      expect(refused.body.message).toBe('progressId must be a UUID.');
    });
  });
});
