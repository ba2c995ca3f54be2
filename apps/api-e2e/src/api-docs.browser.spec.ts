import { randomBytes } from 'node:crypto';
import { Browser, chromium, Page } from 'playwright-core';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { chromiumAvailability, CHROMIUM_PATH } from './browser';
import { cleanEnv, freePort, requireBundles, RunningApi, startApi } from './processes';

/**
 * Swagger UI at /docs as a reader meets it: the built API, Debian's Chromium, and the page's own CSP.
 * A CSP that blocked the UI's script, style or its calls to the API would leave the page empty or the
 * console full of refusals; this test looks at both.
 */

const STEP_TIMEOUT_MS = 30_000;

const chromiumState = chromiumAvailability();
if (!chromiumState.available) console.warn(chromiumState.message);
const describeInBrowser = chromiumState.available || chromiumState.mustFail ? describe : describe.skip;

describeInBrowser('the API docs (/docs) in headless Chromium', () => {
  let api: RunningApi;
  let dropDatabase: (() => Promise<void>) | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!chromiumState.available) throw new Error(chromiumState.message);
    requireBundles();
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    api = await startApi(
      cleanEnv({
        DATABASE_URL: database.url,
        SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        PORT: String(port),
        LOG_LEVEL: 'warn',
      }),
    );
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'], timeout: STEP_TIMEOUT_MS });
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await dropDatabase?.();
  });

  it('renders one block per operation of /docs/openapi.json, with the two Basic schemes, the webhook’s secret header and the portals’ Bearer token under Authorize, and no CSP refusal', async () => {
    const openapi = (await (await fetch(`${api.baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(openapi.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);

    const response = await page.goto(`${api.baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // the UI renders the blocks once it has fetched and parsed the document
    await page
      .locator('.opblock')
      .nth(operations - 1)
      .waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations);
    expect(await page.locator('.info .title').innerText()).toContain('Twofold API');

    await page.locator('button.authorize').first().click();
    const schemes = await page.locator('.auth-container h4').allInnerTexts();
    // the two Basic schemes, the Telegram webhook's secret header, and the self-service portals' Bearer access token
    expect(schemes.map((text) => text.split(/\s/)[0])).toEqual(['account', 'resource', 'telegramSecret', 'accessToken']);
    await page.locator('.auth-btn-wrapper button.btn-done').first().click();
    await page.locator('.dialog-ux').waitFor({ state: 'detached' });

    expect(problems).toEqual([]);
  });

  it('"Try it out" calls the API from the page (connect-src allows its own origin)', async () => {
    const operation = page.locator('#operations-Health-PingController_ping');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const answered = page.waitForResponse((response) => response.url() === `${api.baseUrl}/ping`);
    await operation.locator('button.execute').click();
    expect((await answered).status()).toBe(200);
    await operation.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
    expect(await operation.locator('.live-responses-table tr.response .response-col_status').first().innerText()).toBe('200');
    expect(problems).toEqual([]);
  });
});
