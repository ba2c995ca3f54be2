import { AccountId } from '@twofold/domain';
import { AdministratorsRepository } from '@twofold/persistence';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { EnrollmentLinksService, hashEnrollmentToken } from './enrollment-links.service';

describe('EnrollmentLinksService', () => {
  let t: TestApp;
  let links: EnrollmentLinksService;
  let accountId: AccountId;
  let administratorId: string;

  beforeAll(async () => {
    t = await startTestApp();
    links = t.app.get(EnrollmentLinksService);
    accountId = (await t.newAccount()).account.id;
    administratorId = (
      await new AdministratorsRepository(t.db).insert(accountId, {
        identity: 'ann@example.test',
        name: 'Ann',
        role: 'Admin',
        status: 'Pending',
        registrationDate: t.clock.now(),
        lastLoginDate: null,
      })
    ).id;
  });
  afterAll(() => t.close());

  const rows = () =>
    t.database.dataSource.query(
      'SELECT token_hash, expires_at, revoked_at FROM enrollment_tokens WHERE administrator_id = $1 ORDER BY created_at, id',
      [administratorId],
    );

  it('issues a link under ACCESS_URL/enroll/ with a random token stored only as its hash', async () => {
    const link = await links.issue(accountId, { administratorId }, { ttlMinutes: 30, email: 'ann@example.test' });
    const match = /^http:\/\/twofold\.test\/access\/enroll\/([A-Za-z0-9_-]{43})$/.exec(link.url);
    expect(match).not.toBeNull();
    const token = (match as RegExpExecArray)[1];
    expect(link.expiresAt.toISOString()).toBe('2026-05-20T10:30:00.000Z');
    const [row] = await rows();
    expect(Buffer.from(row.token_hash).equals(hashEnrollmentToken(token))).toBe(true);
    const dump = JSON.stringify(await t.database.dataSource.query('SELECT * FROM enrollment_tokens'));
    expect(dump).not.toContain(token);
  });

  it('revokes the older link when a new one is issued', async () => {
    t.clock.advance(1000);
    const second = await links.issue(accountId, { administratorId }, { ttlMinutes: 60, email: null });
    const all = await rows();
    expect(all).toHaveLength(2);
    expect(all[0].revoked_at).not.toBeNull();
    expect(all[1].revoked_at).toBeNull();
    const secondToken = second.url.split('/').pop() as string;
    expect(Buffer.from(all[1].token_hash).equals(hashEnrollmentToken(secondToken))).toBe(true);
  });
});
