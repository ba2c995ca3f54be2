import { randomBytes } from 'node:crypto';
import { AccountId } from '@twofold/domain';
import { createTestDatabase, newAccount, newOtpAuthenticator, newResource, newUser, TestDatabase } from '../../testing';
import { SecretCipher } from '../secret-cipher';
import { Db } from '../transaction-context';
import { USER_COLUMNS } from './user-row';
import { identityMatch, USER_DETAILS_COLUMNS, UsersRepository } from './users.repository';

const NOW = new Date('2026-05-20T10:00:00Z');
const PAGE = { limit: 100, offset: 0 };

/**
 * GET /users?identity= and the unfiltered GET /users run their statement inside the PL/pgSQL functions
 * users_by_identity_with_details and users_page_with_details (their plans kept per connection). Each
 * is a frozen copy of the statement listWithDetails sends otherwise (for a group's members): these
 * tests fail when they part, so a change of the statement comes with a migration that replaces them.
 */
describe('users with details through users_by_identity_with_details and users_page_with_details (persistence)', () => {
  let database: TestDatabase;
  let db: Db;
  let users: UsersRepository;
  let accountId: AccountId;
  let otherAccountId: AccountId;
  let janeId: string;
  let lookAlikeId: string;

  const whitespaceCollapsed = (sql: string) => sql.replace(/\s+/g, ' ').trim();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
    users = new UsersRepository(db);
    const cipher = new SecretCipher(randomBytes(32));
    accountId = (await newAccount(db, cipher)).account.id;
    otherAccountId = (await newAccount(db, cipher)).account.id;
    const resourceId = (await newResource(db, cipher, accountId, 'VPN')).resource.id;
    janeId = (await newUser(db, accountId, 'jane', { now: NOW })).id;
    await newUser(db, accountId, 'bob', { now: NOW });
    await newUser(db, otherAccountId, 'jane', { now: NOW });
    for (const kind of ['HotpToken', 'TotpToken', 'HotpToken'] as const)
      await newOtpAuthenticator(db, cipher, accountId, janeId, { kind, key: randomBytes(20), now: NOW });
    const q = (sql: string, params: unknown[]) => database.dataSource.query(sql, params);
    const [staff] = await q(`INSERT INTO groups (account_id, name, system, created_at) VALUES ($1, 'staff', false, $2) RETURNING id`, [
      accountId,
      NOW,
    ]);
    const [admins] = await q(`INSERT INTO groups (account_id, name, system, created_at) VALUES ($1, 'Admins', false, $2) RETURNING id`, [
      accountId,
      NOW,
    ]);
    for (const group of [staff, admins])
      await q(`INSERT INTO user_groups (account_id, user_id, group_id) VALUES ($1, $2, $3)`, [accountId, janeId, group.id]);
    for (const number of ['+79990000002', '+79990000001'])
      await q(`INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, $3, $4)`, [accountId, janeId, number, NOW]);
    for (const [name, value] of [
      ['Floor', '3'],
      ['Desk', '12'],
    ])
      await q(`INSERT INTO custom_fields (account_id, user_id, name, value) VALUES ($1, $2, $3, $4)`, [accountId, janeId, name, value]);
    await q(
      `INSERT INTO wrong_code_streaks (account_id, user_id, scope, scope_key, failures, last_failure_at, locked_until)
       VALUES ($1, $2, 'resource', $3, 5, $4, $5), ($1, $2, 'address', $6, 7, $4, $7), ($1, $2, 'address', '192.0.2.1', 1, $4, NULL)`,
      [
        accountId,
        janeId,
        resourceId,
        NOW,
        new Date('2026-05-20T10:05:00Z'),
        `198.51.100.7@${resourceId}`,
        new Date('2026-05-20T10:15:00Z'),
      ],
    );
    // a look-alike kept apart by the identity key migration: same key, tagged
    [{ id: lookAlikeId }] = await q(
      `INSERT INTO users (account_id, identity, identity_key, collision_tag, source, created_at) VALUES ($1, 'ｊａｎｅ', 'jane', 'tag', 'Api', $2) RETURNING id`,
      [accountId, new Date('2026-05-20T10:00:01Z')],
    );
  });
  afterAll(() => database.drop());

  it('is the statement listWithDetails sends otherwise: its columns, identity match and order', async () => {
    const [{ prosrc }] = await database.dataSource.query(`SELECT prosrc FROM pg_proc WHERE proname = 'users_by_identity_with_details'`);
    const body = whitespaceCollapsed(prosrc);
    expect(body).toContain(
      whitespaceCollapsed(`SELECT ${USER_COLUMNS}, ${USER_DETAILS_COLUMNS} FROM users u WHERE u.account_id = p_account_id`),
    );
    expect(body).toContain(whitespaceCollapsed(`AND ${identityMatch('u', 'p_identity_key', 'p_identity')} ORDER BY u.created_at, u.id`));
  });

  it('users_page_with_details is the statement listWithDetails sends for a group, without the filter', async () => {
    const [{ prosrc }] = await database.dataSource.query(`SELECT prosrc FROM pg_proc WHERE proname = 'users_page_with_details'`);
    expect(whitespaceCollapsed(prosrc)).toContain(
      whitespaceCollapsed(
        `SELECT ${USER_COLUMNS}, ${USER_DETAILS_COLUMNS} FROM users u WHERE u.account_id = p_account_id ORDER BY u.created_at, u.id LIMIT p_limit OFFSET p_offset`,
      ),
    );
  });

  it('the page of every user is the page of a group holding every user (the statement sent), in order', async () => {
    const [everyone] = await database.dataSource.query(
      `INSERT INTO groups (account_id, name, system, created_at) VALUES ($1, 'everyone', false, $2) RETURNING id`,
      [accountId, NOW],
    );
    try {
      await database.dataSource.query(
        `INSERT INTO user_groups (account_id, user_id, group_id) SELECT account_id, id, $2 FROM users WHERE account_id = $1`,
        [accountId, everyone.id],
      );
      const inGroup = await users.listWithDetails(accountId, { groupId: everyone.id }, PAGE);
      const page = await users.listWithDetails(accountId, {}, PAGE);
      expect(inGroup.map((entry) => entry.user.identity).sort()).toEqual(['bob', 'jane', 'ｊａｎｅ']);
      expect(page).toEqual(inGroup);
      expect(await users.listWithDetails(accountId, {}, { limit: 1, offset: 1 })).toEqual([inGroup[1]]);
      expect((await users.listWithDetails(otherAccountId, {}, PAGE)).map((entry) => entry.user.identity)).toEqual(['jane']);
    } finally {
      await database.dataSource.query(`DELETE FROM groups WHERE id = $1`, [everyone.id]);
    }
  });

  it("gives a user's details as the page of every user does", async () => {
    const [byIdentity] = await users.listWithDetails(accountId, { identity: 'jane' }, PAGE);
    const onPage = (await users.listWithDetails(accountId, {}, PAGE)).find((entry) => entry.user.id === janeId);
    expect(byIdentity).toEqual(onPage);
    expect(byIdentity.details).toEqual({
      groups: ['Admins', 'staff'],
      authenticatorKinds: expect.arrayContaining(['HotpToken', 'TotpToken']),
      phones: ['+79990000001', '+79990000002'],
      customFields: [
        { name: 'Desk', value: '12' },
        { name: 'Floor', value: '3' },
      ],
      codeLockouts: [
        expect.objectContaining({ scope: 'resource', failures: 5, lockedUntil: new Date('2026-05-20T10:05:00Z'), resourceName: 'VPN' }),
        expect.objectContaining({ scope: 'address', failures: 7, lockedUntil: new Date('2026-05-20T10:15:00Z'), resourceName: 'VPN' }),
      ],
    });
    expect(byIdentity.details.authenticatorKinds).toHaveLength(2);
    expect(byIdentity.user).toEqual(expect.objectContaining({ id: janeId, accountId, identity: 'jane', createdAt: NOW, lastLogin: null }));
  });

  it('matches identities as the statement does: by key, but only exactly among look-alikes; in the account only', async () => {
    const ids = async (identity: string, account = accountId) =>
      (await users.listWithDetails(account, { identity }, PAGE)).map((entry) => entry.user.id);
    expect(await ids('jane')).toEqual([janeId]);
    expect(await ids('ｊａｎｅ')).toEqual([lookAlikeId]);
    // 'JANE' has the key of both, and is neither exactly
    expect(await ids('JANE')).toEqual([]);
    expect(await ids('bob')).toHaveLength(1);
    expect(await ids('BOB')).toHaveLength(1);
    expect(await ids('nobody')).toEqual([]);
    expect(await ids('bob', otherAccountId)).toEqual([]);
    expect((await ids('jane', otherAccountId)).includes(janeId)).toBe(false);
  });

  it('pages like the statement: limit and offset', async () => {
    expect(await users.listWithDetails(accountId, { identity: 'jane' }, { limit: 1, offset: 1 })).toEqual([]);
    expect(await users.listWithDetails(accountId, { identity: 'jane' }, { limit: 0, offset: 0 })).toEqual([]);
  });
});
