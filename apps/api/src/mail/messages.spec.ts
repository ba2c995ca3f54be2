import { linkLifetime, userEnrollmentMail, utcTime } from './messages';

describe('enrollment mails', () => {
  it('write the lifetime as people say it, in the plural forms of the language', () => {
    expect(linkLifetime('en', 1)).toBe('1 minute');
    expect(linkLifetime('en', 30)).toBe('30 minutes');
    expect(linkLifetime('en', 60)).toBe('1 hour');
    expect(linkLifetime('en', 1440 + 360 + 5)).toBe('1 day 6 hours 5 minutes');
    expect(linkLifetime('en', 43200)).toBe('30 days');
    expect(linkLifetime('ru', 21)).toBe('21 минуту');
    expect(linkLifetime('ru', 22)).toBe('22 минуты');
    expect(linkLifetime('ru', 25)).toBe('25 минут');
    expect(linkLifetime('ru', 120)).toBe('2 часа');
    expect(linkLifetime('ru', 4320)).toBe('3 дня');
  });

  it('write the end as a UTC date and time, not an ISO timestamp', () => {
    const at = new Date('2026-05-20T09:05:00.000Z');
    expect(utcTime('en', at)).toBe('20 May 2026, 09:05 UTC');
    expect(utcTime('ru', at)).toBe('20 мая 2026 г., 09:05 UTC');
  });

  it('have a plain-text and an HTML part, the HTML escaped', () => {
    const mail = userEnrollmentMail({
      brand: 'A&B <Bank>',
      language: 'en',
      greeting: 'Jane "J"',
      url: 'http://twofold.test/access/enroll/abc?x=1&y=2',
      ttlMinutes: 90,
      expiresAt: new Date('2026-05-20T11:30:00Z'),
    });
    expect(mail.subject).toBe('A&B <Bank>: set up your second factor');
    expect(mail.text).toContain('The link works once, for 1 hour 30 minutes: until 20 May 2026, 11:30 UTC.');
    expect(mail.text).not.toContain('2026-05-20T');
    expect(mail.html).toContain('A&amp;B &lt;Bank&gt; asks you');
    expect(mail.html).toContain('href="http://twofold.test/access/enroll/abc?x=1&amp;y=2"');
    expect(mail.html).toContain('Hello Jane &quot;J&quot;,');
    expect(mail.html).not.toContain('<Bank>');
  });
});
