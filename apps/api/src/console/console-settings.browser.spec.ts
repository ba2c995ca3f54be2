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

const XSS = PLANTED_MARKUP;

/**
 * The console's settings in a real browser: the name on the pages with its preview, the identity
 * format's dry run and apply, the account's API secret and switch; and nothing the service shows (a
 * display name, a support contact, an administrator's name, a showcase tile, a journal event's
 * details) turned into markup.
 */
describeInBrowser('the console settings browser test')('the console settings in Chromium', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ t, baseUrl, browser } = await startConsoleForBrowser());
  });
  beforeEach(() => {
    // the journal serves a day once it is over: the scenes run late in the day
    t.clock.set(new Date('2026-05-20T23:40:00.000Z'));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    t?.clock.set(TEST_NOW);
  });

  const newPage = (viewport?: { width: number; height: number }) => newConsolePage(browser, { viewport });

  const signIn = (page: Page, admin: ConsoleTestAdmin) => signInInBrowser(t, page, baseUrl, admin);

  /**
   * Whether a planted text became markup: its script ran, or its element is in the page (the CSP would
   * stop the script of an inline handler by itself; the element shows the text was not kept as text).
   */
  const ranScript = async (page: Page) =>
    (await page.locator('img[src="x"]').count()) > 0
      ? 'an <img> was made'
      : page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss);

  it('lets an Admin name the pages with a live preview, and shows every planted text as text', async () => {
    const owner: TestAccount = await t.newAccount({ name: 'Settings in a browser' });
    await t.as(owner.authorization).put('/settings/support-info').send({ adminName: XSS, adminEmail: 'it@corp.example' }).expect(200);
    await t
      .as(owner.authorization)
      .put('/settings/showcase')
      .send({ enabled: true, showcaseLinks: [{ url: 'https://mail.corp.example/', title: `Mail ${XSS}`, openInNewTab: true }] })
      .expect(200);
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin', { email: 'owner@settings.example' });
    const other = await newConsoleAdmin(t, owner.account.id, 'Support 1', { email: 'desk@settings.example' });
    await t.db.manager().query(`UPDATE administrators SET name = $2 WHERE id = $1`, [other.id, `Desk ${XSS}`]);
    const { context, page } = await newPage();
    try {
      await signIn(page, admin);
      await page.getByRole('link', { name: 'Settings' }).click();
      expect(await page.getByTestId('preview-brand').textContent()).toBe('Settings in a browser');
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(XSS);
      expect(await page.getByLabel('Title').inputValue()).toBe(`Mail ${XSS}`);

      // the preview follows the typing, before anything is saved
      await page.getByLabel('Display name').fill(`Acme ${XSS}`);
      expect(await page.getByTestId('preview-brand').textContent()).toBe(`Acme ${XSS}`);
      await page.getByRole('button', { name: 'Save' }).first().click();
      await page.getByText('Saved.').waitFor();
      const branding = await t.as(owner.authorization).get('/settings/branding').expect(200);
      expect(branding.body.model).toEqual({ displayName: `Acme ${XSS}`, isDefault: false });
      await page.getByLabel('Display name').fill('Acme Bank');
      expect(await page.getByTestId('preview-brand').textContent()).toBe('Acme Bank');
      await screenshotIfAsked(page, 'console-settings.png');

      // the screen drawn anew: no notice left from the name's save
      await page.reload();
      await page.getByLabel('Phone').fill('+1 555 0100');
      await page.getByRole('button', { name: 'Save' }).nth(1).click();
      await page.getByText('Saved.').waitFor();
      const support = await t.as(owner.authorization).get('/settings/support-info').expect(200);
      expect(support.body.model).toEqual({ adminName: XSS, adminEmail: 'it@corp.example', adminPhone: '+1 555 0100' });

      await page.getByRole('link', { name: 'Administrators' }).click();
      await page.getByText(`Desk ${XSS}`).waitFor();
      expect(await ranScript(page)).toBeUndefined();

      // the day's journal, just after midnight: the display name's change carries the planted text in its details
      t.clock.set(new Date('2026-05-21T00:05:00.000Z'));
      await page.goto(`${baseUrl}/console/#/journal?day=2026-05-20&object=Accounts`);
      await page.getByText('Accounts ChangeDisplayName').first().waitFor();
      expect(await page.locator('.details').first().textContent()).toContain(`DisplayName: Acme ${XSS}`);
      expect(await ranScript(page)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('runs the identity format dry run, shows its counts, and applies it with its progress', async () => {
    const owner = await t.newAccount({ name: 'Identity format in a browser' });
    const at = (minutes: number) => new Date(t.clock.now().getTime() - minutes * 60_000);
    await newUser(t.db, owner.account.id, 'CORP\\Jane', { now: at(10) });
    await newUser(t.db, owner.account.id, 'jane@corp.example', { now: at(9) });
    await newUser(t.db, owner.account.id, 'CORP\\Bob', { now: at(8) });
    await newUser(t.db, owner.account.id, `Carol${XSS}`, { now: at(7) });
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin', { email: 'owner@format.example' });
    const { context, page } = await newPage();
    try {
      await signIn(page, admin);
      await page.goto(`${baseUrl}/console/#/identity-format`);
      await page.getByLabel('Identity format').selectOption('Login');
      await page.getByTestId('dry-run').click();
      await page.getByTestId('dry-run-users').waitFor();
      expect(await page.getByTestId('dry-run-users').textContent()).toBe('4');
      expect(await page.getByTestId('dry-run-renamed').textContent()).toBe('3');
      expect(await page.getByTestId('dry-run-merged').textContent()).toBe('1');
      expect(await page.getByTestId('dry-run-conflicts').textContent()).toBe('0');
      expect(await page.getByRole('cell', { name: 'jane@corp.example' }).count()).toBe(1);
      await screenshotIfAsked(page, 'console-identity-format.png');
      // a dry run changes nothing
      const [{ n }] = await t.db.manager().query(`SELECT count(*)::int AS n FROM users WHERE account_id = $1`, [owner.account.id]);
      expect(n).toBe(4);

      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      await page.getByRole('button', { name: 'Apply to stored users' }).click();
      await page.getByTestId('apply-result').waitFor();
      expect(await page.getByTestId('apply-result').textContent()).toBe('Renamed: 3. Merged and removed: 1.');
      const bar = page.getByTestId('apply-progress');
      expect([await bar.getAttribute('value'), await bar.getAttribute('max')]).toEqual(['5', '5']);
      const rows: { identity: string }[] = await t.db
        .manager()
        .query(`SELECT identity FROM users WHERE account_id = $1`, [owner.account.id]);
      expect(rows.map((row) => row.identity).sort()).toEqual(['bob', `carol${XSS}`, 'jane'].sort());
      expect(await ranScript(page)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('shows the API secret once on request, and turns the API off and on', async () => {
    const owner = await t.newAccount({ name: 'API key in a browser' });
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin', { email: 'owner@api.example' });
    const { context, page } = await newPage({ width: 420, height: 860 });
    try {
      await signIn(page, admin);
      await page.getByRole('link', { name: 'API key' }).click();
      expect(await page.getByTestId('account-api-key').textContent()).toBe(owner.apiKey);
      expect(await page.getByTestId('account-api-secret').count()).toBe(0);
      await page.getByRole('button', { name: 'Show the secret' }).click();
      expect(await page.getByTestId('account-api-secret').textContent()).toBe(owner.apiSecret);
      await screenshotIfAsked(page, 'console-account-api.png');
      // shown once: the screen drawn again holds no secret
      await page.reload();
      await page.getByTestId('account-api-key').waitFor();
      expect(await page.getByTestId('account-api-secret').count()).toBe(0);

      await page.getByRole('button', { name: 'Turn the API off' }).click();
      await page.getByText('The API is off.').waitFor();
      await page.getByTestId('account-api-status').filter({ hasText: 'Off' }).waitFor();
      await t.as(owner.authorization).get('/users').expect(403);
      // the console keeps working with the API off
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByRole('heading', { name: 'Users' }).waitFor();
      await page.getByRole('link', { name: 'API key' }).click();
      await page.getByRole('button', { name: 'Turn the API on' }).click();
      await page.getByText('The API is on.').waitFor();
      await page.getByTestId('account-api-status').filter({ hasText: 'On' }).waitFor();
      await t.as(owner.authorization).get('/users').expect(200);
    } finally {
      await context.close();
    }
  });
});
