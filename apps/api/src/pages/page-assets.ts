import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Html, trustedHtml } from './html';

/**
 * The pages' style and script are real files (apps/api/src/assets/pages/), so that they are edited,
 * formatted and linted as CSS and JavaScript. They are read once, when this module loads, from one of
 * two places: next to the bundle (webpack.config.js copies src/assets to dist/apps/api/assets, and the
 * Docker image copies dist/apps/api whole), or in the source tree (jest runs this file from src/pages).
 * A missing file stops the server at startup instead of sending pages without their style.
 */
const DIRECTORIES = [join(__dirname, 'assets'), join(__dirname, '..', 'assets')];

function assetBytes(name: string): Buffer {
  const directory = DIRECTORIES.find((candidate) => existsSync(join(candidate, name)));
  if (!directory) throw new Error(`page asset ${name} not found in ${DIRECTORIES.join(' or ')}`);
  return readFileSync(join(directory, name));
}

function pageAsset(name: string): Html {
  return trustedHtml(assetBytes(join('pages', name)).toString('utf8'));
}

/** The inline style of every page (under the page's nonce). */
export const PAGE_STYLE = pageAsset('page.css');

/** The enrollment key's Copy button (under the page's nonce). */
export const COPY_KEY_SCRIPT = pageAsset('copy-key.js');

/** The browser tab's icon, `/favicon.ico`: the logo in an ICO file (tools/scripts/make-favicon.mjs makes it). */
export const FAVICON = assetBytes('favicon.ico');
