import { newUser, TestAccount } from '@twofold/persistence/testing';
import { Browser, Page } from 'playwright-core';
import {
  newConsolePage,
  ConsoleTestAdmin,
  newConsoleAdmin,
  PLANTED_MARKUP,
  signInInBrowser,
  startConsoleForBrowser,
} from '../../test/testing/console-admin';
import { describeInBrowser, screenshotIfAsked } from '../../test/testing/in-browser';
import { TEST_NOW, TestApp } from '../../test/testing/test-app';

/**
 * Users created, changed and deleted in the console by a Support 4 administrator, through the account
 * API (its refusals shown as they came, each change journaled with the administrator as the actor); a
 * Support 3, whose role does not cover it, gets no form or button for it. The name typed in is markup
 * and must stay text.
 */
describeInBrowser('the console users browser test')('creating, changing and deleting users in the console', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let owner: TestAccount;

  beforeAll(async () => {
    ({ t, baseUrl, browser } = await startConsoleForBrowser());
    owner = await t.newAccount({ name: 'Console users', licenses: 10 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    t?.clock.set(TEST_NOW);
  });

  // the browser's clock is the service's: the user screen's "yesterday" is a day the service has
  const newPage = () => newConsolePage(browser, { clockAt: t.clock.now() });
  const signIn = (page: Page, admin: ConsoleTestAdmin) => signInInBrowser(t, page, baseUrl, admin);
  const userRow = async (identity: string) =>
    (
      await t.db
        .manager()
        .query(
          `SELECT u.id, u.name, u.email, (SELECT array_agg(p.number) FROM phones p WHERE p.user_id = u.id) AS phones FROM users u WHERE u.account_id = $1 AND u.identity = $2`,
          [owner.account.id, identity],
        )
    )[0];
  /** User events written on behalf of `admin` (the console's changes carry the administrator). */
  const userEventsBy = async (admin: ConsoleTestAdmin) =>
    (
      await t.db
        .manager()
        .query(
          `SELECT action FROM journal_events WHERE account_id = $1 AND object = 'User' AND additional_fields->>'EmployeeIdentity' = $2 ORDER BY seq`,
          [owner.account.id, admin.email],
        )
    ).map((row: { action: string }) => row.action);

  it('lets a Support 4 create a user, change it (a refusal of the API shown as it came) and delete it', async () => {
    await newUser(t.db, owner.account.id, 'taken.person', { now: t.clock.now() });
    const desk = await newConsoleAdmin(t, owner.account.id, 'Support 4', { email: 'desk4@example.com' });
    const { context, page } = await newPage();
    try {
      await signIn(page, desk);
      await page.getByRole('link', { name: 'Users', exact: true }).click();
      await page.getByText('New user').click();
      await page.getByLabel('Identity', { exact: true }).last().fill('new.person');
      await page.getByLabel('Name', { exact: true }).fill(PLANTED_MARKUP);
      await page.getByLabel('E-mail', { exact: true }).fill('new.person@corp.example');
      await page.getByLabel('Phone', { exact: true }).fill('+79990001122');
      await page.getByRole('button', { name: 'Create the user' }).click();

      await page.getByRole('heading', { level: 1, name: 'new.person' }).waitFor();
      const created = await userRow('new.person');
      expect(created).toMatchObject({ name: PLANTED_MARKUP, email: 'new.person@corp.example', phones: ['+79990001122'] });
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(PLANTED_MARKUP);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();

      // a refusal of the API is shown as it came, and nothing changes: the identity of another user
      await page.getByLabel('Identity', { exact: true }).fill('taken.person');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const refusal = page.getByTestId('form-error').last();
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('taken.person');
      expect(await userRow('new.person')).toBeDefined();
      await page.getByLabel('Identity', { exact: true }).fill('new.person');

      await page.getByLabel('Name', { exact: true }).fill('New Person');
      await page.getByLabel('E-mail', { exact: true }).fill('np@corp.example');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      expect(await userRow('new.person')).toMatchObject({ name: 'New Person', email: 'np@corp.example' });
      await screenshotIfAsked(page, 'console-user-edit.png');

      await page.getByRole('button', { name: 'Delete the user' }).click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      expect(await userRow('new.person')).toBeUndefined();
      const events = await userEventsBy(desk);
      expect(events.length).toBeGreaterThanOrEqual(3);
    } finally {
      await context.close();
    }
  });

  it('gives a Support 3 no way to create, change or delete a user, and the server refuses it anyway', async () => {
    await newUser(t.db, owner.account.id, 'kept.person', { now: t.clock.now() });
    const support3 = await newConsoleAdmin(t, owner.account.id, 'Support 3', { email: 'desk3@example.com' });
    const { context, page } = await newPage();
    try {
      await signIn(page, support3);
      await page.getByRole('link', { name: 'Users', exact: true }).click();
      await page.getByTestId('user-link').first().waitFor();
      expect(await page.getByText('New user').count()).toBe(0);
      await page.goto(`${baseUrl}/console/#/user?identity=kept.person`);
      await page.getByRole('heading', { level: 1, name: 'kept.person' }).waitFor();
      expect(await page.getByRole('button', { name: 'Delete the user' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);

      const { id } = await userRow('kept.person');
      const status = await page.evaluate(async (userId) => {
        const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
        const res = await fetch(`/users/${userId}`, { method: 'DELETE', headers: { 'X-CSRF-Token': session.csrfToken } });
        return res.status;
      }, id);
      expect(status).toBe(403);
      expect(await userRow('kept.person')).toBeDefined();
    } finally {
      await context.close();
    }
  });
});
