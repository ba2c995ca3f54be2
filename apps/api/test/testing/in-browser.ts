import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

/**
 * The in-process browser tests (a page of the test application in a real browser): Debian's
 * Chromium driven by playwright-core, never a downloaded browser. Missing, the tests are skipped
 * loudly on a developer's machine and fail under CI (a skipped browser test proves nothing).
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** How long one step of a browser test may wait (a busy 2-core CI machine is slow, not stuck). */
export const BROWSER_STEP_TIMEOUT_MS = 30_000;

/** `describe` when Chromium is there (or CI must fail without it), else `describe.skip` with a warning. */
export function describeInBrowser(what: string): jest.Describe {
  const missing = !existsSync(CHROMIUM_PATH);
  const underCi = Boolean(process.env['CI']) && process.env['CI'] !== 'false' && process.env['CI'] !== '0';
  if (missing) console.warn(`${CHROMIUM_PATH} is missing: ${what} is ${underCi ? 'FAILING (CI is set)' : 'SKIPPED'}.`);
  return missing && !underCi ? describe.skip : describe;
}

export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', ...args], timeout: BROWSER_STEP_TIMEOUT_MS });
}

/**
 * With SCREENSHOT_DIR set (relative to the repository), the page as the user sees it is saved there:
 * how the README's and docs/images' pictures are made (`SCREENSHOT_DIR=docs/images npx jest <spec>`).
 */
export async function screenshotIfAsked(page: Page, name: string): Promise<void> {
  const dir = process.env['SCREENSHOT_DIR'];
  if (!dir) return;
  const root = resolve(__dirname, '../../../..');
  mkdirSync(resolve(root, dir), { recursive: true });
  await page.screenshot({ path: resolve(root, dir, name), fullPage: true, animations: 'disabled' });
}
