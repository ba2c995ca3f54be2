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
import { describeInBrowser, screenshotIfAsked } from '../../test/testing/in-browser';
import { TEST_NOW, TestApp } from '../../test/testing/test-app';

const XSS = PLANTED_MARKUP;

/**
 * The administrators' console in a real browser: sign-in with the mailed link and the authenticator's
 * code, a Support 2 administrator locking a user without a way to the journal, an Admin giving a
 * resource a new secret seen once, the journal of a day filtered, and nothing the service shows
 * turned into markup.
 */
describeInBrowser('the console browser test')('the administrators console in Chromium', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let owner: TestAccount;

  beforeAll(async () => {
    ({ t, baseUrl, browser } = await startConsoleForBrowser());
    // the day's journal is served once the day is over: the scenes run late in the day, and the journal scene just after midnight
    t.clock.set(new Date('2026-05-20T23:20:00.000Z'));
    owner = await t.newAccount({ name: 'Console in a browser' });
    const jane = await newUser(t.db, owner.account.id, 'jane', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, owner.account.id, jane.id, {
      kind: 'TotpToken',
      key: Buffer.alloc(20, 7),
      name: XSS,
      now: t.clock.now(),
    });
    await t.db.manager().query(`UPDATE users SET name = $2 WHERE id = $1`, [jane.id, XSS]);
    await t.newResource(owner.account.id, `VPN ${XSS}`);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    t?.clock.set(TEST_NOW);
  });

  const newPage = (viewport = { width: 1280, height: 800 }) => newConsolePage(browser, { viewport });

  const signIn = (page: Page, admin: ConsoleTestAdmin) =>
    signInInBrowser(t, page, baseUrl, admin, (filled) => screenshotIfAsked(filled, 'console-sign-in.png'));

  it('lets a Support 2 administrator lock a user, and shows them no journal', async () => {
    const helpdesk = await newConsoleAdmin(t, owner.account.id, 'Support 2', { email: 'helpdesk@example.com' });
    const { context, page } = await newPage();
    try {
      await signIn(page, helpdesk);
      expect(await page.getByTestId('who').textContent()).toBe('helpdesk@example.com · Support 2');
      await page.getByTestId('licenses').waitFor();
      await screenshotIfAsked(page, 'console-dashboard.png');
      expect(await page.locator('nav a').allTextContents()).toEqual(['Dashboard', 'Users', 'Groups', 'Access history']);

      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Find by identity').fill('jane');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByTestId('user-link').click();
      expect(await page.getByTestId('user-status').textContent()).toBe('Active');
      await page.getByRole('button', { name: 'Lock', exact: true }).click();
      await page.getByRole('button', { name: 'Unlock', exact: true }).waitFor();
      expect(await page.getByTestId('user-status').textContent()).toBe('Locked');
      await screenshotIfAsked(page, 'console-user.png');
      const [row] = await t.db
        .manager()
        .query(`SELECT is_locked FROM users WHERE account_id = $1 AND identity = 'jane'`, [owner.account.id]);
      expect(row.is_locked).toBe(true);
      // names shown as text: the would-be markup is on the screen, nothing ran
      expect(await page.getByText(XSS).count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
      // no factor removal for Support 2
      expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(0);

      await page.goto(`${baseUrl}/console/#/journal`);
      await page.getByText('Your role does not allow this.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows the screen asked for last, whatever order the screens’ data arrives in', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin', { email: 'quick@example.com' });
    const { context, page } = await newPage();
    try {
      await signIn(page, admin);
      await page.getByTestId('licenses').waitFor();
      // the dashboard's figures held back until the resources screen is drawn
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/console/api/dashboard', async (route) => {
        await held;
        await route.continue();
      });
      const dashboardAnswered = page.waitForResponse('**/console/api/dashboard');
      await page.goto(`${baseUrl}/console/#/dashboard`);
      await page.goto(`${baseUrl}/console/#/resources`);
      await page.getByRole('button', { name: 'New secret' }).waitFor();
      release();
      await dashboardAnswered;
      // a frame and a task: the late answer has been read and drawn by then
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');
      expect(await page.getByTestId('licenses').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'New secret' }).count()).toBeGreaterThan(0);
      expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Resources');
    } finally {
      await context.close();
    }
  });

  it('lets an Admin give a resource a new secret, shown once, and filter the journal of a day', async () => {
    t.clock.set(new Date('2026-05-20T23:50:00.000Z'));
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin', { email: 'owner@example.com' });
    const { context, page } = await newPage({ width: 420, height: 860 });
    try {
      await signIn(page, admin);
      await page.goto(`${baseUrl}/console/#/resources`);
      await page.getByRole('button', { name: 'New secret' }).click();
      const secret = (await page.getByTestId('resource-secret').textContent()) ?? '';
      expect(secret).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      await screenshotIfAsked(page, 'console-resource-secret.png');
      const [stored] = await t.db.manager().query(`SELECT api_key FROM resources WHERE account_id = $1`, [owner.account.id]);
      const asResource = `Basic ${Buffer.from(`${stored.api_key}:${secret}`).toString('base64')}`;
      await t.as(asResource).get('/access/requests/00000000-0000-4000-8000-000000000000').expect(404);
      expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();

      // just after midnight (the session is 15 minutes old): yesterday's journal
      t.clock.set(new Date('2026-05-21T00:05:00.000Z'));
      await page.goto(`${baseUrl}/console/#/journal?day=2026-05-20`);
      await page.getByTestId('journal-total').waitFor();
      await page.getByLabel('Object').selectOption('User');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/object=User/);
      // the unfiltered table is still shown until the filtered page arrives: wait for the redraw, which
      // never comes (and the wait fails) when the filter is not applied
      await page.waitForFunction(`(() => {
        const cells = [...document.querySelectorAll('tbody tr td:nth-child(2)')].map((cell) => cell.textContent ?? '');
        return cells.length > 0 && cells.every((text) => text.startsWith('User '));
      })()`);
      const actions = await page.locator('tbody tr td:nth-child(2)').allTextContents();
      expect(actions).toContain('User Update');
      expect(actions.every((text) => text.startsWith('User '))).toBe(true);
      expect(await page.getByText('helpdesk@example.com').count()).toBeGreaterThan(0);
      await screenshotIfAsked(page, 'console-journal.png');
    } finally {
      await context.close();
    }
  });
});
