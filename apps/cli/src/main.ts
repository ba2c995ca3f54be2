import { systemClock } from '@twofold/domain';
import { connectDatabase, Db, loadEncryptionKey, loadPreviousEncryptionKeys, resolveDataDir, SecretCipher } from '@twofold/persistence';
import { runCli } from './cli';
import { Provisioning } from './provisioning';

async function main(): Promise<number> {
  const env = process.env;
  const dataDir = resolveDataDir(env);
  const databaseUrl = env['DATABASE_URL'] || undefined;
  return runCli(
    process.argv.slice(2),
    { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
    async ({ migrate }) => {
      const cipher = new SecretCipher(loadEncryptionKey(env, dataDir, databaseUrl === undefined), loadPreviousEncryptionKeys(env));
      // stdout carries only the result: the embedded server's own messages are not printed
      const connection = await connectDatabase({ databaseUrl, dataDir, poolSize: 2, applicationName: 'twofold-cli', migrate });
      return {
        provisioning: new Provisioning(new Db(connection.dataSource), cipher, systemClock),
        dataSource: connection.dataSource,
        close: connection.close,
      };
    },
  );
}

main().then(
  (code) => process.exit(code),
  (error) => {
    // runCli answers every error itself; this is for a failure of the output itself
    process.stderr.write(`twofold-cli: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
