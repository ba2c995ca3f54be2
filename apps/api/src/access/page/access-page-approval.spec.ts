import { newUser } from '@twofold/persistence/testing';
import { ApprovalWaiter } from '../../approvals/approval-waiter';
import { EnrollmentLinksService } from '../../enrollment/enrollment-links.service';
import { hiddenInputs, totpCode } from '../../../test/clients/client-kit';
import { PhoneApprovalKit, startPhoneApprovalKit } from '../../../test/clients/phone-approval.testing';

type Resource = Awaited<ReturnType<PhoneApprovalKit['t']['newResource']>>;

/**
 * The access page of a user with an approval factor: the question is sent when the page is shown,
 * with three numbers on the phone, one of them the page's; the page waits by long poll and its form
 * applies the answer. Driven here as a browser without scripts would (the button is the path without
 * script); the browser spec runs the script.
 */
describe('the access page asking for an approval', () => {
  let kit: PhoneApprovalKit;
  let site: Resource;

  beforeAll(async () => {
    kit = await startPhoneApprovalKit();
    site = await kit.t.newResource(kit.accountId, 'Intranet');
  });
  afterAll(() => kit?.close());

  async function pageOf(identity: string) {
    const created = await kit.t
      .http()
      .post('/access/requests')
      .set('Authorization', site.authorization)
      .send({ identity, callback: { action: 'https://intranet.example/mfa', target: '_self' } })
      .expect(200);
    return new URL(created.body.model.url).pathname;
  }
  const numberOn = (html: string) => Number(/id="approval-number"[^>]*><strong>(\d\d)<\/strong>/.exec(html)?.[1]);

  it('shows the number, sends three number buttons once; the right one grants through the form', async () => {
    const user = await kit.telegramUser('page.anna');
    const after = kit.lastMessageId(user.chat);
    const path = await pageOf('page.anna');
    const browser = kit.t.browser();
    const page = await browser.get(path).expect(200);
    const number = numberOn(page.text);
    expect(number).toBeGreaterThanOrEqual(10);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    const question = await kit.fake.question(user.chat.id, after);
    const labels = question.keyboard?.flat().map((button) => button.text) ?? [];
    expect(labels).toHaveLength(4);
    expect(labels).toContain(String(number));
    // a reload shows the same number and sends nothing more
    expect(numberOn((await browser.get(path).expect(200)).text)).toBe(number);
    expect(kit.fake.messagesIn(user.chat.id).filter((m) => m.fromBot && m.messageId > after)).toHaveLength(1);

    // one long poll ends at its bound (on the clock) still pending
    const polled = browser.get(`${path}/approval`).then((res) => res.body);
    await kit.waitsHeld(1);
    kit.t.clock.advance(25_000);
    kit.t.app.get(ApprovalWaiter).expireDue();
    expect(await polled).toEqual({ status: 'pending' });
    await kit.fake.pressButton(user.chat, question, String(number));
    expect((await browser.get(`${path}/approval`)).body).toEqual({ status: 'decided' });
    const fields = hiddenInputs(page.text);
    const granted = await browser.post(path).type('form').send(Object.fromEntries(fields)).expect(200);
    expect(hiddenInputs(granted.text).get('accessToken')).toEqual(expect.any(String));
  });

  it('the wrong number denies the request', async () => {
    const user = await kit.telegramUser('page.boris');
    const after = kit.lastMessageId(user.chat);
    const path = await pageOf('page.boris');
    const browser = kit.t.browser();
    const page = await browser.get(path).expect(200);
    const number = numberOn(page.text);
    const question = await kit.fake.question(user.chat.id, after);
    const wrong = question.keyboard?.flat().find((button) => /^\d\d$/.test(button.text) && Number(button.text) !== number)?.text as string;
    await kit.fake.pressButton(user.chat, question, wrong);
    const denied = await browser
      .post(path)
      .type('form')
      .send(Object.fromEntries(hiddenInputs(page.text)));
    expect(denied.status).toBe(403);
    const [row] = await kit.t.database.dataSource.query(`SELECT status FROM access_requests WHERE identity = 'page.boris'`);
    expect(row.status).toBe('Denied');
  });

  it('"enter a code instead" for a user who also has a code factor', async () => {
    await kit.telegramUser('page.clara', { withCode: true });
    const path = await pageOf('page.clara');
    const browser = kit.t.browser();
    const page = await browser.get(path).expect(200);
    expect(page.text).toContain('href="?code"');
    const prompt = await browser.get(`${path}?code`).expect(200);
    const formToken = hiddenInputs(prompt.text).get('formToken') as string;
    const granted = await browser
      .post(path)
      .type('form')
      .send({ formToken, code: totpCode(kit.t) })
      .expect(200);
    expect(hiddenInputs(granted.text).get('accessToken')).toEqual(expect.any(String));
  });

  it('a newcomer enrolls Telegram from the first visit: the deep link binds the chat, the page notices, then asks to approve', async () => {
    const path = await pageOf('page.newcomer');
    const browser = kit.t.browser();
    const enroll = await browser.get(path).expect(200);
    const link = /id="telegram-link" href="([^"]+)"/.exec(enroll.text)?.[1] as string;
    expect(link).toMatch(/^https:\/\/t\.me\/TwofoldTestBot\?start=[A-Za-z0-9_-]{1,64}$/);
    const statePath = /data-state="([^"]+)"/.exec(enroll.text)?.[1].replace(/&amp;/g, '&') as string;
    const stateUrl = `${path.slice(0, path.lastIndexOf('/') + 1)}${statePath}`;
    expect((await browser.get(stateUrl)).body).toEqual({ bound: false });
    const chat = { id: 6_900_000_001, languageCode: 'en' };
    expect(await kit.fake.sendText(chat, `/start ${new URL(link).searchParams.get('start')}`)).toBe(200);
    expect((await browser.get(stateUrl)).body).toEqual({ bound: true });
    const after = kit.lastMessageId(chat);
    const approval = await browser.get(path).expect(200);
    expect(approval.text).toContain('id="approval-number"');
    const question = await kit.fake.question(chat.id, after);
    expect(question.keyboard?.flat()).toHaveLength(4);
  });

  it('the enrollment page offers Telegram beside the app: the deep link binds the chat, and its check says so', async () => {
    const user = await newUser(kit.t.db, kit.accountId, 'enroll.dana', { now: kit.t.clock.now() });
    const issued = await kit.t.app.get(EnrollmentLinksService).issue(kit.accountId, { userId: user.id }, { ttlMinutes: 60, email: null });
    const path = new URL(issued.url).pathname;
    const page = await kit.t.http().get(path).expect(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    const link = /id="telegram-link" href="([^"]+)"/.exec(page.text)?.[1] as string;
    const statePath = /data-state="([^"]+)"/.exec(page.text)?.[1].replace(/&amp;/g, '&') as string;
    const stateUrl = `${path.slice(0, path.lastIndexOf('/') + 1)}${statePath}`;
    expect((await kit.t.http().get(stateUrl)).body).toEqual({ bound: false });
    expect(await kit.fake.sendText({ id: 6_900_000_002, languageCode: 'ru' }, `/start ${new URL(link).searchParams.get('start')}`)).toBe(
      200,
    );
    expect((await kit.t.http().get(stateUrl)).body).toEqual({ bound: true });
    // another link id, or a link of another user, says nothing
    expect((await kit.t.http().get(`${stateUrl.split('?')[0]}?link=${user.id}`)).body).toEqual({ bound: false });
  });

  it("the page's checks of an unknown request answer 404", async () => {
    const unknown = '/access/00000000-0000-4000-8000-000000000000';
    expect((await kit.t.http().get(`${unknown}/approval`)).status).toBe(404);
    expect((await kit.t.http().get(`${unknown}/telegram?link=x`)).status).toBe(404);
  });

  it('two first visits at once ask once: both show the same number, one question is sent', async () => {
    const user = await kit.telegramUser('page.twice');
    const after = kit.lastMessageId(user.chat);
    const path = await pageOf('page.twice');
    const [one, two] = await Promise.all([kit.t.browser().get(path), kit.t.browser().get(path)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(numberOn(one.text)).toBe(numberOn(two.text));
    await kit.fake.question(user.chat.id, after);
    expect(kit.fake.messagesIn(user.chat.id).filter((m) => m.fromBot && m.messageId > after)).toHaveLength(1);
  });
});
