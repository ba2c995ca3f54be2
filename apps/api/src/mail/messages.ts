import { MailLanguage, PRODUCT_NAME } from '@twofold/domain';
import { html, Html } from '../pages/html';
import { plural } from '../pages/plural';

/** Every mail the API sends: subject, plain-text body and its HTML alternative, in one place. */
export interface MailText {
  subject: string;
  text: string;
  html: string;
}

/** What an enrollment mail says; `brand` is the account's display name, `language` the recipient's. */
export interface EnrollmentMailInput {
  brand: string;
  language: MailLanguage;
  greeting: string;
  url: string;
  /** the link's lifetime as asked for: written as a duration, beside the UTC time it ends */
  ttlMinutes: number;
  expiresAt: Date;
}

/** "30 minutes", "2 hours", "1 day 6 hours" (ru: "30 минут", "2 часа", "1 день 6 часов"): the lifetime as people say it. */
export function linkLifetime(language: MailLanguage, ttlMinutes: number): string {
  const en = { day: { one: 'day', other: 'days' }, hour: { one: 'hour', other: 'hours' }, minute: { one: 'minute', other: 'minutes' } };
  const ru = {
    day: { one: 'день', few: 'дня', many: 'дней', other: 'дня' },
    hour: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
    minute: { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' },
  };
  const words = language === 'ru' ? ru : en;
  const parts: [number, keyof typeof en][] = [
    [Math.floor(ttlMinutes / 1440), 'day'],
    [Math.floor((ttlMinutes % 1440) / 60), 'hour'],
    [ttlMinutes % 60, 'minute'],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${plural(language, n, words[unit])}`)
    .join(' ');
}

/** "20 May 2026, 10:30 UTC" (ru: "20 мая 2026 г., 10:30 UTC"): the link's end, never a raw ISO timestamp. */
export function utcTime(language: MailLanguage, at: Date): string {
  const locale = language === 'ru' ? 'ru-RU' : 'en-GB';
  const date = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${date}, ${time} UTC`;
}

interface Wording {
  subject: string;
  hello: string;
  lead: string;
  button: string;
  expiry: string;
  ignore: string;
  sentBy: string;
}

const WORDING: Record<MailLanguage, (input: EnrollmentMailInput, admin: boolean) => Wording> = {
  en: (m, admin) => ({
    subject: admin ? `${m.brand}: you are invited as an administrator, set up your second factor` : `${m.brand}: set up your second factor`,
    hello: `Hello ${m.greeting},`,
    lead: admin
      ? `You were registered as an administrator of ${m.brand}. Set up your second factor with an authenticator app here:`
      : `${m.brand} asks you to set up your second factor with an authenticator app here:`,
    button: 'Set up the second factor',
    expiry: `The link works once, for ${linkLifetime('en', m.ttlMinutes)}: until ${utcTime('en', m.expiresAt)}.`,
    ignore: 'If you did not expect this message, ignore it.',
    sentBy: `Sent by ${PRODUCT_NAME}, the two-factor service of ${m.brand}.`,
  }),
  ru: (m, admin) => ({
    subject: admin ? `${m.brand}: вы приглашены администратором, настройте второй фактор` : `${m.brand}: настройте второй фактор`,
    hello: `Здравствуйте, ${m.greeting}!`,
    lead: admin
      ? `Вас зарегистрировали администратором ${m.brand}. Настройте второй фактор в приложении-аутентификаторе по ссылке:`
      : `${m.brand} просит вас настроить второй фактор в приложении-аутентификаторе по ссылке:`,
    button: 'Настроить второй фактор',
    expiry: `Ссылка действует один раз, ${linkLifetime('ru', m.ttlMinutes)}: до ${utcTime('ru', m.expiresAt)}.`,
    ignore: 'Если вы не ждали этого письма, не обращайте на него внимания.',
    sentBy: `Отправлено ${PRODUCT_NAME}, сервисом двухфакторной аутентификации ${m.brand}.`,
  }),
};

function compose(language: MailLanguage, w: Wording, url: string): MailText {
  const body: Html = html`<!doctype html>
<html lang="${language}">
<body style="font-family: sans-serif; line-height: 1.5; color: #1a1c21;">
<p>${w.hello}</p>
<p>${w.lead}</p>
<p><a href="${url}" style="display: inline-block; padding: 0.6em 1.2em; background: #2457d6; color: #fff; text-decoration: none; border-radius: 6px;">${w.button}</a></p>
<p style="word-break: break-all;"><a href="${url}">${url}</a></p>
<p>${w.expiry}<br>${w.ignore}</p>
<p style="font-size: 0.8em; color: #50566a;">${w.sentBy}</p>
</body>
</html>`;
  return {
    subject: w.subject,
    text: [w.hello, '', w.lead, url, '', w.expiry, w.ignore, '', `-- `, w.sentBy].join('\n'),
    html: body.toString(),
  };
}

/** The link to a user's own second-factor setup (POST /users with `EnrollmentLink.To: email`, POST /users/{id}/enroll). */
export function userEnrollmentMail(input: EnrollmentMailInput): MailText {
  return compose(input.language, WORDING[input.language](input, false), input.url);
}

/** The invitation of a new administrator to set up their second factor. */
export function administratorInvitationMail(input: EnrollmentMailInput): MailText {
  return compose(input.language, WORDING[input.language](input, true), input.url);
}

/** What the console's sign-in mail says: `brand` the account's display name. */
export interface ConsoleSignInMailInput {
  brand: string;
  language: MailLanguage;
  /** the 8-digit first factor */
  code: string;
  /** the console's page with the code in its fragment (a browser never sends a fragment to a server) */
  url: string;
  ttlMinutes: number;
}

const CONSOLE_SIGN_IN_WORDING: Record<MailLanguage, (m: ConsoleSignInMailInput) => Wording> = {
  en: (m) => ({
    subject: `${m.brand}: your code to sign in to the console is ${m.code}`,
    hello: 'Hello,',
    lead: `Your code to sign in to the administrators' console of ${m.brand} is ${m.code}. Or open the console with it:`,
    button: 'Open the console',
    expiry: `The code works once, for ${linkLifetime('en', m.ttlMinutes)}; the console then asks for your second factor.`,
    ignore: 'If you did not try to sign in, do nothing: the code is useless without your second factor.',
    sentBy: `Sent by ${PRODUCT_NAME}, the two-factor service of ${m.brand}.`,
  }),
  ru: (m) => ({
    subject: `${m.brand}: код для входа в консоль ${m.code}`,
    hello: 'Здравствуйте!',
    lead: `Ваш код для входа в консоль администратора ${m.brand}: ${m.code}. Или откройте консоль с ним:`,
    button: 'Открыть консоль',
    expiry: `Код действует один раз, ${linkLifetime('ru', m.ttlMinutes)}; затем консоль спросит ваш второй фактор.`,
    ignore: 'Если вы не входили, ничего не делайте: без второго фактора код бесполезен.',
    sentBy: `Отправлено ${PRODUCT_NAME}, сервисом двухфакторной аутентификации ${m.brand}.`,
  }),
};

/** The mailed first factor of a sign-in to the administrators' console. */
export function consoleSignInMail(input: ConsoleSignInMailInput): MailText {
  return compose(input.language, CONSOLE_SIGN_IN_WORDING[input.language](input), input.url);
}
