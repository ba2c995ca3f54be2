import { newUser } from '@twofold/persistence/testing';
import { FakePhoneGateway } from '../../test/testing/fake-phone-gateway';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/** An account's own gateway, by default: public addresses only (phone-codes/gateway-destination.ts). */
describe("an account's gateway and private addresses", () => {
  let t: TestApp;
  let fake: FakePhoneGateway;

  beforeAll(async () => {
    fake = await FakePhoneGateway.start();
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("by default an account's own gateway reaches no loopback or private address: Denied, nothing sent", async () => {
    const guarded = t;
    {
      const account = await guarded.newAccount();
      const vpn = await guarded.newResource(account.account.id, 'VPN');
      const put = await guarded
        .as(account.authorization)
        .put('/settings/sms-gateway')
        .send({ url: `${fake.url}/internal`, successContains: 'queued' });
      expect(put.status).toBe(200);
      const user = await newUser(guarded.db, account.account.id, 'guarded', { now: guarded.clock.now() });
      await guarded.database.dataSource.query(
        `INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, '+79991234512', now())`,
        [account.account.id, user.id],
      );
      const before = fake.requests.length;
      const denied = await guarded.as(vpn).post('/access/requests/ra').send({ identity: 'guarded', passCode: 's', language: 'en' });
      expect(denied.body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: could not send the code by SMS. Try again later.',
      });
      expect(fake.requests.length).toBe(before);
    }
  });
});
