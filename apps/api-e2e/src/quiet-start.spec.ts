import { randomBytes } from 'node:crypto';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { cleanEnv, freePort, requireBundles, startApi } from './processes';

beforeAll(() => requireBundles());

/**
 * A start that is not on a terminal (a service manager, a container, `npm start > log`) writes JSON
 * lines: at the default level only ours, so the hint for provisioning the first account is not buried
 * under the framework's list of routes.
 */
it('a start not on a terminal writes two lines at info: listening, and how to provision the first account', async () => {
  const database = await createEmptyDatabase();
  const api = await startApi(
    cleanEnv({ DATABASE_URL: database.url, SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PORT: String(await freePort()) }),
  );
  try {
    const output = await api.waitForOutput('No account yet');
    const lines = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const start = lines.slice(0, lines.findIndex((line) => String(line['msg']).startsWith('No account yet')) + 1);
    expect(start.map((line) => line['msg'])).toEqual([
      'Twofold API listening',
      expect.stringMatching(/^No account yet\. Create one with: /),
    ]);
    expect(lines.filter((line) => line['context'] !== undefined)).toEqual([]);
  } finally {
    await api.stop();
    await database.drop();
  }
});
