import { AccountId } from '@twofold/domain';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from './test-app';

/**
 * For the standby-code specs: one service with an account, a resource to sign in through, and users
 * holding a TOTP token of `key`; the calls each spec makes (`ra`, the codes' routes, the journal of
 * one kind of event, a sign-in on the access page). Registers its own beforeAll/afterAll: the
 * fields are set once the spec's tests run.
 */
export class StandbyCodesFixture {
  readonly key = Buffer.from('3132333435363738393031323334353637383930', 'hex');
  t!: TestApp;
  accountId!: AccountId;
  account!: { authorization: string };
  resource!: Awaited<ReturnType<TestApp['newResource']>>;

  /** `resourceName`: what the journal's `Resource` says. */
  static use(resourceName: string): StandbyCodesFixture {
    const fixture = new StandbyCodesFixture();
    beforeAll(async () => {
      fixture.t = await startTestApp();
      const created = await fixture.t.newAccount();
      fixture.accountId = created.account.id;
      fixture.account = created;
      fixture.resource = await fixture.t.newResource(fixture.accountId, resourceName);
    });
    afterAll(() => fixture.t.close());
    return fixture;
  }

  /** A user holding a TOTP token of `key`; the user's id. */
  readonly userWithToken = async (identity: string): Promise<string> => {
    const user = await newUser(this.t.db, this.accountId, identity, { now: this.t.clock.now() });
    await newOtpAuthenticator(this.t.db, this.t.cipher, this.accountId, user.id, {
      kind: 'TotpToken',
      key: this.key,
      now: this.t.clock.now(),
    });
    return user.id;
  };

  readonly ra = (body: Record<string, unknown>) =>
    this.t
      .as(this.resource)
      .post('/access/requests/ra')
      .send({ language: 'en', ...body });

  readonly recoveryCodesCall = (userId: string) => this.t.as(this.account).post(`/users/${userId}/recovery-codes`).send();

  readonly bypassCodesCall = (userId: string, body: unknown) =>
    this.t
      .as(this.account)
      .post(`/users/${userId}/bypass-codes`)
      .send(body as object);

  /** The account's journal events of one object and action, oldest first. */
  readonly journalOf = (object: string, action: string) =>
    this.t.database.dataSource.query(
      `SELECT subject, success, additional_fields FROM journal_events WHERE account_id = $1 AND object = $2 AND action = $3 ORDER BY event_date, seq`,
      [this.accountId, object, action],
    );

  /** An access request of `identity` (with a callback, so the granted page carries the token), opened in one browser. */
  readonly openAccessPage = async (identity: string) => {
    const created = await this.t
      .as(this.resource)
      .post('/access/requests')
      .send({ identity, language: 'en', Callback: { Action: 'https://app.example/cb', Target: '_self' } });
    const path = new URL(created.body.model.url).pathname;
    const browser = this.t.browser();
    const page = await browser.get(path);
    const formToken = /<input type="hidden" name="formToken" value="([^"]+)">/.exec(page.text)?.[1] as string;
    return {
      requestId: created.body.model.id as string,
      page,
      /** the page's form posted with `code` */
      postCode: (code: string) => browser.post(path).type('form').send({ code, formToken }),
    };
  };
}
