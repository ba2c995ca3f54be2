import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COPY_KEY_SCRIPT, PAGE_STYLE } from './page-assets';

describe('page assets: the style and the script are the files under src/assets/pages', () => {
  const file = (name: string) => readFileSync(join(__dirname, '..', 'assets', 'pages', name), 'utf8');

  it('sends page.css as it is', () => {
    expect(PAGE_STYLE.text).toBe(file('page.css'));
  });

  it('sends copy-key.js as it is', () => {
    expect(COPY_KEY_SCRIPT.text).toBe(file('copy-key.js'));
  });
});
