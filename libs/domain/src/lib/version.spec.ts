import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TWOFOLD_VERSION } from './version';

it('is the version of package.json, and CHANGELOG.md has an entry for it', () => {
  const root = join(__dirname, '../../../..');
  expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version).toBe(TWOFOLD_VERSION);
  expect(readFileSync(join(root, 'CHANGELOG.md'), 'utf8')).toContain(`## ${TWOFOLD_VERSION} `);
});
