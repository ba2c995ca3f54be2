import { TWOFOLD_VERSION } from '@twofold/domain';
import { runCli } from './cli';

describe('--version', () => {
  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => {
      throw new Error('--version needs no database');
    });
    return { code, stdout, stderr };
  }

  it('prints the version without touching the database', async () => {
    expect(await cli('--version')).toEqual({ code: 0, stdout: `twofold ${TWOFOLD_VERSION}\n`, stderr: '' });
    expect(await cli('--version', '--json')).toEqual({ code: 0, stdout: `{"version":"${TWOFOLD_VERSION}"}\n`, stderr: '' });
  });

  it('is listed by --help, and is no flag of a command', async () => {
    expect((await cli('--help')).stdout).toContain('--version');
    expect(await cli('account', 'list', '--version')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("has no option '--version'"),
    });
  });
});
