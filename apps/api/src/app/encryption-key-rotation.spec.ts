import { randomBytes } from 'node:crypto';
import { asAccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { encryptionKeyId, rotateSecretEncryptionKey, SecretCipher } from '@twofold/persistence';
import { legacyCiphertext, newOtpAuthenticator, newResource, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/**
 * SECRET_ENCRYPTION_KEY rotation as an operator runs it (docs/operations/encryption-key-rotation.md):
 * the API restarted with the new key and the old one in SECRET_ENCRYPTION_PREVIOUS_KEYS serves every
 * secret the old key wrote, in either stored format, before and after `cli secrets rotate-key`.
 */
describe('the API during a SECRET_ENCRYPTION_KEY rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const oldCipher = new SecretCipher(oldKey);
  const key = randomBytes(20);
  let t: TestApp;
  let logged: string[] = [];
  let resourceAuthorization: string;

  beforeAll(async () => {
    t = await startTestApp(
      { encryptionKey: newKey, previousEncryptionKeys: [oldKey], logLevel: 'error' },
      { logDestination: { write: (line: string) => void logged.push(line) } },
    );
    const { account } = await t.newAccount();
    const accountId = asAccountId(account.id);
    // the resource's secret, too, was written by the old key
    resourceAuthorization = (await newResource(t.db, oldCipher, accountId, 'VPN')).authorization;
    for (const identity of ['old-format', 'old-key', 'lost-key']) {
      const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
      const authenticator = await newOtpAuthenticator(t.db, oldCipher, accountId, user.id, { kind: 'TotpToken', key, now: t.clock.now() });
      const stored: Record<string, Buffer> = {
        'old-format': legacyCiphertext(oldKey, 'authenticator.secret', key),
        'old-key': oldCipher.encrypt('authenticator.secret', key),
        'lost-key': new SecretCipher(randomBytes(32)).encrypt('authenticator.secret', key),
      };
      await t.db.manager().query('UPDATE authenticators SET secret_enc = $1 WHERE id = $2', [stored[identity], authenticator.id]);
    }
  });
  beforeEach(() => {
    logged = [];
  });
  afterAll(() => t.close());

  const ra = (identity: string, offsetMs = 0) =>
    t
      .as(resourceAuthorization)
      .post('/access/requests/ra')
      .send({ identity, passCode: generateTotp({ secret: key, time: t.clock.now().getTime() + offsetMs }) });

  it('grants codes of authenticators written by the old key, in the first format and with its key id', async () => {
    for (const identity of ['old-format', 'old-key']) {
      const granted = await ra(identity);
      expect(granted.status).toBe(200);
      expect(granted.body.model.status).toBe('Granted');
    }
  });

  it('still grants them once the rotation has re-encrypted every row under the new key', async () => {
    const rotation = await rotateSecretEncryptionKey(t.database.dataSource, t.cipher);
    expect(rotation).toMatchObject({ keyId: encryptionKeyId(newKey), undecryptable: 1 });
    // a later time step: the one above was spent
    t.clock.advance(30_000);
    for (const identity of ['old-format', 'old-key']) expect((await ra(identity)).body.model.status).toBe('Granted');
  });

  it('answers a secret under a key no longer configured as any internal error, and logs the missing key id for the operator', async () => {
    const refused = await ra('lost-key');
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({
      model: null,
      success: false,
      message: 'Internal error. Quote the trace id when reporting it.',
      traceId: expect.any(String),
    });
    expect(JSON.stringify(refused.body)).not.toContain('key id');
    const lines = logged.join('');
    expect(lines).toContain('which is not configured');
    expect(lines).toContain(encryptionKeyId(newKey));
    for (const k of [oldKey, newKey]) {
      expect(lines).not.toContain(k.toString('hex'));
      expect(lines).not.toContain(k.toString('base64'));
    }
  });
});
