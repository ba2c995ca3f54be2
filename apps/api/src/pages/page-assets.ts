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
const DIRECTORIES = [join(__dirname, 'assets', 'pages'), join(__dirname, '..', 'assets', 'pages')];

function pageAsset(name: string): Html {
  const directory = DIRECTORIES.find((candidate) => existsSync(join(candidate, name)));
  if (!directory) throw new Error(`page asset ${name} not found in ${DIRECTORIES.join(' or ')}`);
  return trustedHtml(readFileSync(join(directory, name), 'utf8'));
}

/** The inline style of every page (under the page's nonce). */
export const PAGE_STYLE = pageAsset('page.css');

/** The enrollment key's Copy button (under the page's nonce). */
export const COPY_KEY_SCRIPT = pageAsset('copy-key.js');
