import { newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { EnrollmentLinksService } from './enrollment-links.service';

/** A link opened from a mail days later: the page says until when it works, in UTC like the mail. */
describe('the enrollment page says when its link expires', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['en', 'This link works until 2026-05-21 12:30 UTC.'],
    ['ru', 'Ссылка действует до 2026-05-21 12:30 UTC.'],
  ])('in %s, with the moment as a machine-readable <time>', async (language, sentence) => {
    const { account } = await t.newAccount();
    const user = await newUser(t.db, account.id, `jane-${language}`);
    const ttlMinutes = 26 * 60 + 30;
    const link = await t.app.get(EnrollmentLinksService).issue(account.id, { userId: user.id }, { ttlMinutes, email: null });
    const expiresAt = new Date(t.clock.now().getTime() + ttlMinutes * 60_000).toISOString();
    expect(expiresAt).toBe('2026-05-21T12:30:00.000Z');
    const page = await t.http().get(new URL(link.url).pathname).set('Accept-Language', language);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<time datetime="${expiresAt}">${sentence}</time>`);
  });
});
