import { tmpdir } from 'node:os';
import { ConfigError, loadConfig } from './app-config';

describe('configuration', () => {
  const base = {
    DATABASE_URL: 'postgres://twofold@db.example:5432/twofold',
    SECRET_ENCRYPTION_KEY: '00'.repeat(32),
    TWOFOLD_DATA_DIR: tmpdir(),
    PUBLIC_URL: 'https://2fa.example.com/',
  };

  it('uses PUBLIC_URL as the token issuer by default', () => {
    expect(loadConfig(base).tokenIssuer).toBe('https://2fa.example.com');
  });

  it.each(['https://issuer.example.com', 'https://issuer.example.com/', 'http://idp.example:8443/realms/corp'])(
    'keeps TOKEN_ISSUER %p as written',
    (issuer) => {
      expect(loadConfig({ ...base, TOKEN_ISSUER: issuer }).tokenIssuer).toBe(issuer);
    },
  );

  it.each([
    'issuer',
    '/relative',
    'ftp://issuer.example',
    'https://user:pw@issuer.example',
    'https://issuer.example/?x=1',
    'https://issuer.example/#f',
    ' https://issuer.example',
  ])('stops at a bad TOKEN_ISSUER %p', (issuer) => {
    expect(() => loadConfig({ ...base, TOKEN_ISSUER: issuer })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, TOKEN_ISSUER: issuer })).toThrow(/TOKEN_ISSUER/);
  });
});

describe('API_DOCS', () => {
  const base = {
    DATABASE_URL: 'postgres://twofold@db.example:5432/twofold',
    SECRET_ENCRYPTION_KEY: '00'.repeat(32),
    TWOFOLD_DATA_DIR: tmpdir(),
  };

  it('serves the docs by default', () => {
    expect(loadConfig(base).apiDocs).toBe(true);
  });

  it.each([
    ['false', false],
    ['OFF', false],
    ['0', false],
    ['true', true],
    ['yes', true],
  ])('reads %p as %p', (value, expected) => {
    expect(loadConfig({ ...base, API_DOCS: value }).apiDocs).toBe(expected);
  });

  it('stops at a value that is not a boolean', () => {
    expect(() => loadConfig({ ...base, API_DOCS: 'maybe' })).toThrow(/API_DOCS must be true or false/);
  });

  it('serves the console unless CONSOLE=false', () => {
    expect(loadConfig(base).console).toBe(true);
    expect(loadConfig({ ...base, CONSOLE: 'false' }).console).toBe(false);
    expect(() => loadConfig({ ...base, CONSOLE: 'maybe' })).toThrow(/CONSOLE must be true or false/);
  });
  it('tries the database 10 times at start unless DATABASE_START_ATTEMPTS says otherwise; LOG_FORMAT decides pretty or json', () => {
    expect(loadConfig(base)).toMatchObject({ databaseStartAttempts: 10, logFormat: undefined });
    expect(loadConfig({ ...base, DATABASE_START_ATTEMPTS: '1', LOG_FORMAT: 'json' })).toMatchObject({
      databaseStartAttempts: 1,
      logFormat: 'json',
    });
  });

  it('lets a resource create 6000 access requests a minute unless ACCESS_REQUESTS_PER_MINUTE says otherwise', () => {
    expect(loadConfig(base).accessRequestsPerMinute).toBe(6000);
    expect(loadConfig({ ...base, ACCESS_REQUESTS_PER_MINUTE: '120' }).accessRequestsPerMinute).toBe(120);
  });

  it('takes TWOFOLD_CLI_COMMAND, how the CLI is run where the API runs, for the provisioning hint', () => {
    expect(loadConfig(base).cliCommand).toBeUndefined();
    expect(loadConfig({ ...base, TWOFOLD_CLI_COMMAND: ' node dist/apps/cli/main.js ' }).cliCommand).toBe('node dist/apps/cli/main.js');
    expect(loadConfig({ ...base, TWOFOLD_CLI_COMMAND: '' }).cliCommand).toBeUndefined();
  });

  it('listens for credential changes on DATABASE_LISTEN_URL when given (past a transaction pooler), else on the pool', () => {
    expect(loadConfig(base).databaseListenUrl).toBeUndefined();
    expect(loadConfig({ ...base, DATABASE_LISTEN_URL: 'postgres://twofold@db.example:5432/twofold' }).databaseListenUrl).toBe(
      'postgres://twofold@db.example:5432/twofold',
    );
  });

  it.each([
    ['ACCESS_REQUESTS_PER_MINUTE', '0'],
    ['ACCESS_REQUESTS_PER_MINUTE', 'lots'],
    ['TWOFOLD_CLI_COMMAND', 'node cli.js\nrm -rf /'],
    ['DATABASE_START_ATTEMPTS', '0'],
    ['DATABASE_START_ATTEMPTS', 'ten'],
    ['DATABASE_START_ATTEMPTS', '1001'],
    ['LOG_FORMAT', 'fancy'],
    ['DATABASE_LISTEN_URL', 'mysql://db.example/twofold'],
    ['DATABASE_LISTEN_URL', 'not a url'],
  ])('stops at %s=%p', (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
  });
});

describe('SECRET_ENCRYPTION_PREVIOUS_KEYS', () => {
  const base = {
    DATABASE_URL: 'postgres://twofold@db.example:5432/twofold',
    SECRET_ENCRYPTION_KEY: '00'.repeat(32),
    TWOFOLD_DATA_DIR: tmpdir(),
  };

  it('has none by default, and reads a comma-separated list of keys that only decrypt', () => {
    expect(loadConfig(base).previousEncryptionKeys).toEqual([]);
    const previous = loadConfig({
      ...base,
      SECRET_ENCRYPTION_PREVIOUS_KEYS: `${'11'.repeat(32)},${Buffer.alloc(32, 2).toString('base64')}`,
    });
    expect(previous.previousEncryptionKeys).toEqual([Buffer.alloc(32, 0x11), Buffer.alloc(32, 2)]);
  });

  it('stops at a wrong entry, naming its position and not its text', () => {
    const wrong = 'ab'.repeat(31);
    let error: unknown;
    try {
      loadConfig({ ...base, SECRET_ENCRYPTION_PREVIOUS_KEYS: `${'11'.repeat(32)},${wrong}` });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('SECRET_ENCRYPTION_PREVIOUS_KEYS entry 2');
    expect((error as Error).message).not.toContain(wrong);
  });
});

describe('approvals and the Telegram bot', () => {
  const base = {
    DATABASE_URL: 'postgres://twofold@db.example:5432/twofold',
    SECRET_ENCRYPTION_KEY: '00'.repeat(32),
    TWOFOLD_DATA_DIR: tmpdir(),
  };
  const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
  const SECRET = 'webhook-secret-0123456789';

  it('waits 55 s for an approval unless APPROVAL_WAIT_SECONDS says otherwise, at most 58', () => {
    expect(loadConfig(base).approvalWaitSeconds).toBe(55);
    expect(loadConfig({ ...base, APPROVAL_WAIT_SECONDS: '58' }).approvalWaitSeconds).toBe(58);
    expect(loadConfig({ ...base, APPROVAL_WAIT_SECONDS: '20' }).approvalWaitSeconds).toBe(20);
    for (const bad of ['59', '60', '0', '4', '5.5', 'soon', '-1']) {
      expect(() => loadConfig({ ...base, APPROVAL_WAIT_SECONDS: bad })).toThrow(/APPROVAL_WAIT_SECONDS/);
    }
  });

  it('offers the Twofold Authenticator app on the enrolling pages unless MOBILE_APP_OFFER is false', () => {
    expect(loadConfig(base).mobileAppOffer).toBe(true);
    expect(loadConfig({ ...base, MOBILE_APP_OFFER: 'false' }).mobileAppOffer).toBe(false);
    expect(() => loadConfig({ ...base, MOBILE_APP_OFFER: 'maybe' })).toThrow(/MOBILE_APP_OFFER must be true or false/);
  });

  it('has no bot without TELEGRAM_BOT_TOKEN', () => {
    expect(loadConfig(base).telegram).toBeUndefined();
    expect(() => loadConfig({ ...base, TELEGRAM_WEBHOOK_SECRET: SECRET })).toThrow(/TELEGRAM_BOT_TOKEN/);
  });

  it('polls getUpdates by default, and takes the webhook when its secret is set', () => {
    expect(loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN }).telegram).toEqual({
      botToken: TOKEN,
      apiUrl: 'https://api.telegram.org',
      updates: 'polling',
      webhookSecret: undefined,
    });
    expect(loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET }).telegram).toMatchObject({
      updates: 'webhook',
      webhookSecret: SECRET,
    });
    expect(
      loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET, TELEGRAM_UPDATES: 'polling' }).telegram?.updates,
    ).toBe('polling');
    expect(() => loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_UPDATES: 'webhook' })).toThrow(/TELEGRAM_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_UPDATES: 'push' })).toThrow(/TELEGRAM_UPDATES/);
  });

  it('points at another Bot API server with TELEGRAM_API_URL', () => {
    expect(loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: 'http://127.0.0.1:8081/' }).telegram?.apiUrl).toBe(
      'http://127.0.0.1:8081',
    );
    expect(() => loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: 'ftp://x' })).toThrow(/TELEGRAM_API_URL/);
  });

  it('refuses a malformed token or a short secret without repeating either', () => {
    for (const token of ['123456789', 'abc:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', '123:short', '123:AAHdqTcvCH1vGWJxfSeofSAs0K5PAL Dsaw']) {
      let error: unknown;
      try {
        loadConfig({ ...base, TELEGRAM_BOT_TOKEN: token });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/TELEGRAM_BOT_TOKEN/);
      expect((error as Error).message).not.toContain(token);
    }
    for (const secret of ['short', 'has spaces in it here', 'x'.repeat(257)]) {
      let error: unknown;
      try {
        loadConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: secret });
      } catch (caught) {
        error = caught;
      }
      expect((error as Error).message).toMatch(/TELEGRAM_WEBHOOK_SECRET/);
      expect((error as Error).message).not.toContain(secret);
    }
  });
});
