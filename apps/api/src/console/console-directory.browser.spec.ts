import { newOtpAuthenticator, newUser, TestAccount } from '@twofold/persistence/testing';
import { Browser, Page } from 'playwright-core';
import {
  newConsolePage,
  ConsoleTestAdmin,
  newConsoleAdmin,
  PLANTED_MARKUP,
  signInInBrowser,
  startConsoleForBrowser,
} from '../../test/testing/console-admin';
import { outboxMails } from '../../test/testing/outbox';
import { BROWSER_STEP_TIMEOUT_MS, describeInBrowser, screenshotIfAsked } from '../../test/testing/in-browser';
import { TEST_NOW, TestApp } from '../../test/testing/test-app';

const XSS = PLANTED_MARKUP;
/** The day whose access history the scenes read (the API serves past days only)… */
const HISTORY_DAY = '2026-05-20';
/** …and the scenes' time, the next morning: the browser's clock too, so the console's "yesterday" is that day. */
const SCENE_TIME = new Date('2026-05-21T09:00:00.000Z');
/** A scene is many browser steps: on a busy 2-core machine it outlasts jest's 30 seconds without being stuck. */
const SCENE_TIMEOUT_MS = 4 * BROWSER_STEP_TIMEOUT_MS;

/**
 * The console's directory screens in a real browser: an Admin makes a group and gives it members,
 * makes IP lists (the API's refusal shown as it came), hands a user bypass codes (seen once, and one of
 * them signs in on `ra`), disables a factor, changes an administrator's role and reads the access
 * history of a day; a Support 1 sees groups without a button to change them and the server refuses
 * the change anyway. Group names, identities, IP list names and the history's identities and resource
 * names are planted as markup and must stay text.
 */
describeInBrowser('the console directory browser test')('the console directory screens in Chromium', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let owner: TestAccount;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    ({ t, baseUrl, browser } = await startConsoleForBrowser());
    t.clock.set(new Date(`${HISTORY_DAY}T08:00:00.000Z`));
    owner = await t.newAccount({ name: 'Console directory', licenses: 100 });
    const jane = await newUser(t.db, owner.account.id, 'jane', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, owner.account.id, jane.id, {
      kind: 'TotpToken',
      key: Buffer.alloc(20, 7),
      name: 'Key fob',
      now: t.clock.now(),
    });
    await newUser(t.db, owner.account.id, XSS, { now: t.clock.now() });
    vpn = await t.newResource(owner.account.id, `VPN ${XSS}`);
    // the history of the day: sign-ins recorded with the identities and resource name as sent
    for (const identity of [XSS, 'jane']) {
      await t.as(vpn.authorization).post('/access/requests').send({ identity }).expect(200);
      // the history is in the order of creation: one a minute
      t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    }
    const denied = await t
      .as(vpn.authorization)
      .post('/access/requests/ra')
      .send({ identity: 'jane', passCode: '000000', ip: '198.51.100.7' });
    expect(denied.body.model.status).toBe('Denied');
    t.clock.set(SCENE_TIME);
  }, SCENE_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    t?.clock.set(TEST_NOW);
  });

  const newPage = (viewport?: { width: number; height: number }) => newConsolePage(browser, { viewport, clockAt: t.clock.now() });

  const signIn = (page: Page, admin: ConsoleTestAdmin) => signInInBrowser(t, page, baseUrl, admin);

  const nothingRan = (page: Page) => page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss);

  async function groupsOfAccount(): Promise<string[]> {
    const rows: { name: string }[] = await t.db
      .manager()
      .query(`SELECT name FROM groups WHERE account_id = $1 AND NOT system ORDER BY name`, [owner.account.id]);
    return rows.map((row) => row.name);
  }

  it(
    'lets an Admin make groups and members, IP lists, bypass codes seen once, and read the access history',
    async () => {
      const admin = await newConsoleAdmin(t, owner.account.id, 'Admin', { email: 'owner@example.com' });
      const invited = await newConsoleAdmin(t, owner.account.id, 'Support 1', { email: 'new.helper@example.com', status: 'Pending' });
      const { context, page } = await newPage();
      try {
        await signIn(page, admin);
        expect(await page.locator('nav a').allTextContents()).toEqual([
          'Dashboard',
          'Users',
          'Groups',
          'Access history',
          'Journal',
          'Resources',
          'IP lists',
          'Administrators',
          'Settings',
          'API key',
        ]);

        // groups: one with markup for a name (created, renamed, deleted), one with members
        await page.getByRole('link', { name: 'Groups' }).click();
        await page.getByLabel('Group name').fill(XSS);
        await page.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('heading', { name: XSS }).waitFor();
        expect(await page.locator('h1').textContent()).toBe(XSS);
        await page.getByLabel('New name').fill(`Old ${XSS}`);
        await page.getByRole('button', { name: 'Rename' }).click();
        await page.getByRole('heading', { name: `Old ${XSS}` }).waitFor();
        expect(await groupsOfAccount()).toContain(`Old ${XSS}`);
        expect(await groupsOfAccount()).not.toContain(XSS);
        await page.getByRole('button', { name: 'Delete the group' }).click();
        await page.getByTestId('groups-total').waitFor();
        expect(await groupsOfAccount()).not.toContain(`Old ${XSS}`);

        await page.getByLabel('Group name').fill('VPN users');
        await page.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('heading', { name: 'VPN users' }).waitFor();
        for (const identity of ['jane', XSS]) {
          await page.getByLabel('Add a user by identity').fill(identity);
          await page.getByRole('button', { name: 'Add', exact: true }).click();
          await page.getByTestId('member-link').filter({ hasText: identity }).waitFor();
        }
        await page.getByLabel('Add a user by identity').fill('nobody');
        await page.getByRole('button', { name: 'Add', exact: true }).click();
        await page.getByText('No user has the identity “nobody”.').waitFor();
        expect((await page.getByTestId('member-link').allTextContents()).sort()).toEqual([XSS, 'jane'].sort());
        const members = await t.db
          .manager()
          .query(
            `SELECT u.identity FROM user_groups ug JOIN users u ON u.id = ug.user_id JOIN groups g ON g.id = ug.group_id WHERE g.name = 'VPN users'`,
          );
        expect(members.map((row: { identity: string }) => row.identity).sort()).toEqual([XSS, 'jane'].sort());
        await screenshotIfAsked(page, 'console-groups.png');

        // IP lists: the API's refusal as it came, then two lists, one edited
        await page.getByRole('link', { name: 'IP lists' }).click();
        await page.getByLabel('Name', { exact: true }).fill('Office');
        await page.getByLabel('Addresses and networks, one per line').fill('10.0.0.0/8\n10.0.0.300');
        await page.getByRole('button', { name: 'Create' }).click();
        const refusal = page.getByRole('alert');
        await refusal.filter({ hasText: 'ranges' }).waitFor();
        expect(await refusal.textContent()).toBe('ranges[1] "10.0.0.300" is not an IP address or CIDR range.');
        await page.getByLabel('Addresses and networks, one per line').fill('10.0.0.0/8\n192.168.1.7');
        await page.getByLabel(`VPN ${XSS}`).check();
        await page.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('cell', { name: 'Office' }).waitFor();
        await page.getByLabel('Name', { exact: true }).fill(XSS);
        await page.getByLabel('Action').selectOption('Deny');
        await page.getByLabel('Addresses and networks, one per line').fill('203.0.113.0/24');
        await page.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('cell', { name: XSS, exact: true }).waitFor();
        await page
          .getByRole('row', { name: /Office/ })
          .getByRole('button', { name: 'Edit' })
          .click();
        await page.getByLabel('Addresses and networks, one per line').fill('10.0.0.0/8\n192.168.1.7\n2001:db8::/32');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('10.0.0.0/8, 192.168.1.7, 2001:db8::/32').waitFor();
        const lists = await t.db.manager().query(
          `SELECT l.name, l.action, l.ranges, ARRAY(SELECT r.resource_id::text FROM ip_list_resources r WHERE r.ip_list_id = l.id) AS resources
             FROM ip_lists l WHERE l.account_id = $1 ORDER BY l.name COLLATE "C"`,
          [owner.account.id],
        );
        expect(lists).toEqual([
          { name: XSS, action: 'Deny', ranges: ['203.0.113.0/24'], resources: [] },
          { name: 'Office', action: 'Bypass', ranges: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'], resources: [vpn.resource.id] },
        ]);
        expect(await page.getByText(`VPN ${XSS}`).count()).toBeGreaterThan(0);
        await screenshotIfAsked(page, 'console-ip-lists.png');

        // a user: groups, a factor disabled and enabled, bypass codes shown once and good on `ra`
        await page.goto(`${baseUrl}/console/#/user?identity=jane`);
        await page.getByRole('heading', { name: 'Bypass codes' }).waitFor();
        expect(await page.getByTestId('user-group').allTextContents()).toEqual(['AllUsers', 'VPN users']);
        await page.getByRole('button', { name: 'Disable' }).click();
        await page.getByRole('button', { name: 'Enable' }).waitFor();
        const [disabled] = await t.db.manager().query(`SELECT disabled FROM authenticators WHERE name = 'Key fob'`);
        expect(disabled.disabled).toBe(true);
        await page.getByRole('button', { name: 'Enable' }).click();
        await page.getByRole('button', { name: 'Disable' }).waitFor();
        // yesterday's sign-ins of jane: the two recorded that day
        expect(await page.getByRole('table', { name: 'Access history' }).locator('tbody tr').count()).toBe(2);

        await page.getByLabel('How many codes').fill('3');
        await page.getByRole('button', { name: 'Issue bypass codes' }).click();
        await page.getByTestId('bypass-code').first().waitFor();
        const codes = await page.getByTestId('bypass-code').allTextContents();
        expect(codes).toHaveLength(3);
        for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
        await screenshotIfAsked(page, 'console-user-bypass.png');
        const granted = await t.as(vpn.authorization).post('/access/requests/ra').send({ identity: 'jane', passCode: codes[1] });
        expect(granted.body.model).toMatchObject({ status: 'Granted', authenticator: 'BypassCode' });
        await page.reload();
        await page.getByRole('heading', { name: 'Bypass codes' }).waitFor();
        expect(await page.getByTestId('bypass-code').count()).toBe(0);
        expect(await page.getByText(codes[0]).count()).toBe(0);

        // a user locked out of codes from one address: the lockout shown, and cleared
        const bob = await newUser(t.db, owner.account.id, 'bob', { now: t.clock.now() });
        await newOtpAuthenticator(t.db, t.cipher, owner.account.id, bob.id, {
          kind: 'TotpToken',
          key: Buffer.alloc(20, 9),
          now: t.clock.now(),
        });
        for (const passCode of ['100001', '100002', '100003', '100004', '100005']) {
          await t.as(vpn.authorization).post('/access/requests/ra').send({ identity: 'bob', passCode, ip: '192.0.2.9' }).expect(200);
        }
        const lockedOut = () =>
          t.db.manager().query(`SELECT 1 FROM wrong_code_streaks WHERE user_id = $1 AND locked_until IS NOT NULL`, [bob.id]);
        expect(await lockedOut()).toHaveLength(1);
        await page.goto(`${baseUrl}/console/#/user?identity=bob`);
        await page.getByRole('table', { name: 'Lockouts for wrong codes' }).getByText('192.0.2.9', { exact: false }).waitFor();
        await page.getByRole('button', { name: 'Clear code lockouts' }).click();
        await page.getByText('The code lockouts were cleared.').waitFor();
        expect(await page.getByRole('table', { name: 'Lockouts for wrong codes' }).count()).toBe(0);
        expect(await lockedOut()).toHaveLength(0);

        // administrators: a role changed, an invitation sent again
        await page.getByRole('link', { name: 'Administrators' }).click();
        await page.getByLabel('Change the role: new.helper@example.com').selectOption('Support 3');
        await page.getByText('The role was changed.').waitFor();
        const [role] = await t.db.manager().query(`SELECT role FROM administrators WHERE id = $1`, [invited.id]);
        expect(role.role).toBe('Support 3');
        const mailsBefore = outboxMails(t).filter((mail) => mail.includes('To: new.helper@example.com')).length;
        await page.getByRole('button', { name: 'Send the invitation again' }).click();
        await page.getByText('The invitation was sent again.').waitFor();
        expect(outboxMails(t).filter((mail) => mail.includes('To: new.helper@example.com')).length).toBe(mailsBefore + 1);

        // the access history of the day: identities and the resource's name as text, a filter by identity
        await page.getByRole('link', { name: 'Access history' }).click();
        expect(await page.getByLabel('Day').inputValue()).toBe(HISTORY_DAY);
        await page.getByTestId('history-total').waitFor();
        expect(await page.getByTestId('history-total').textContent()).toBe('3 requests');
        expect(await page.getByTestId('history-identity').allTextContents()).toEqual([XSS, 'jane', 'jane']);
        expect(await page.getByRole('cell', { name: `VPN ${XSS}` }).count()).toBe(3);
        expect(await page.getByRole('cell', { name: '198.51.100.7' }).count()).toBe(1);
        await screenshotIfAsked(page, 'console-history.png');
        await page.getByLabel('Identity').fill('JANE');
        await page.getByRole('button', { name: 'Show' }).click();
        await page.waitForURL(/identity=JANE/);
        await page.getByText('2 requests').waitFor();
        expect(await page.getByTestId('history-identity').allTextContents()).toEqual(['jane', 'jane']);
        expect(await nothingRan(page)).toBeUndefined();
      } finally {
        await context.close();
      }
    },
    SCENE_TIMEOUT_MS,
  );

  it(
    'shows a Support 1 the groups without a way to change them, and the server refuses the change',
    async () => {
      await t
        .as(owner.authorization)
        .post('/groups')
        .send({ name: `Helpdesk ${XSS}` })
        .expect(201);
      const [jane] = await t.db.manager().query(`SELECT id FROM users WHERE account_id = $1 AND identity = 'jane'`, [owner.account.id]);
      await t
        .as(owner.authorization)
        .post(`/v2/users/${jane.id}/groups`)
        .send({ GroupNames: [`Helpdesk ${XSS}`] })
        .expect(200);
      const support = await newConsoleAdmin(t, owner.account.id, 'Support 1', { email: 'first.line@example.com' });
      const { context, page } = await newPage({ width: 420, height: 860 });
      try {
        await signIn(page, support);
        expect(await page.locator('nav a').allTextContents()).toEqual(['Dashboard', 'Users', 'Groups', 'Access history']);
        await page.getByRole('link', { name: 'Groups' }).click();
        await page
          .getByTestId('group-link')
          .filter({ hasText: `Helpdesk ${XSS}` })
          .click();
        await page.getByTestId('member-link').filter({ hasText: 'jane' }).waitFor();
        expect(await page.locator('h1').textContent()).toBe(`Helpdesk ${XSS}`);
        for (const name of ['Rename', 'Delete the group', 'Remove from the group', 'Add']) {
          expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
        }
        await page.goto(`${baseUrl}/console/#/groups`);
        await page.getByTestId('groups-total').waitFor();
        expect(await page.getByLabel('Group name').count()).toBe(0);

        await page.goto(`${baseUrl}/console/#/user?identity=jane`);
        await page.getByTestId('user-group').first().waitFor();
        for (const name of ['Issue bypass codes', 'Disable', 'Remove', 'Remove from the group']) {
          expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
        }
        await page.goto(`${baseUrl}/console/#/ip-lists`);
        await page.getByText('Your role does not allow this.').waitFor();

        // the console hides the buttons; the server is what refuses, a call made by hand from the page too
        const refused = await page.evaluate(async () => {
          const session = (await (await fetch('/console/api/session', { headers: { Accept: 'application/json' } })).json()) as {
            csrfToken: string;
          };
          const headers = { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': session.csrfToken };
          const create = await fetch('/groups', { method: 'POST', headers, body: JSON.stringify({ name: 'Sneaky' }) });
          return { status: create.status, body: await create.json() };
        });
        expect(refused).toMatchObject({ status: 403, body: { message: 'Your role does not allow this.' } });
        expect(await groupsOfAccount()).not.toContain('Sneaky');
        expect(await nothingRan(page)).toBeUndefined();
      } finally {
        await context.close();
      }
    },
    SCENE_TIMEOUT_MS,
  );
});
