import { PhoneCodeLimit, PhoneCodeMethod } from '@twofold/domain';
import { hiddenInputs } from '../../pages/form-fields';
import { html, Html } from '../../pages/html';
import { PageLanguage } from '../../pages/i18n/languages';
import { ICONS } from '../../pages/icons';

/** The form field whose value (`sms`, `call`) asks the page to send a code to the user's phone. */
export const SEND_CODE_FIELD = 'send';

/** The code prompt's offer to send a code to the user's phone, and what the last press came to. */
export interface AccessPhoneModel {
  /** where codes go, masked: `+7 ••• •• 12` */
  to: string;
  /** the user has token codes too: the intro names both */
  tokens: boolean;
  /** the last press sent a code this way */
  sent?: PhoneCodeMethod;
  /** the last press sent nothing, and why */
  notSent?: { method: PhoneCodeMethod; reason: 'undeliverable' | PhoneCodeLimit };
}

const TEXTS = {
  en: {
    intro: (identity: string, to: string) => `Signed in as ${identity}. Get a code on your phone ${to} and enter it.`,
    sendSms: 'Send a code by SMS',
    call: 'Call me',
    sendAgainSms: 'Send the SMS again',
    callAgain: 'Call me again',
    sent: (method: PhoneCodeMethod, to: string) =>
      method === 'sms' ? `The code was sent by SMS to ${to}.` : `A call to ${to} will read the code to you.`,
    undeliverable: (method: PhoneCodeMethod) =>
      `Could not send the code ${method === 'sms' ? 'by SMS' : 'by a call'}. Try again later or use another way to sign in.`,
    destination: 'Codes cannot be sent to this phone number. Contact your administrator.',
    tooMany: 'Too many codes were requested. Wait a little and try again.',
    phoneLabel: 'No code at hand?',
  },
  ru: {
    intro: (identity: string, to: string) => `Вход под именем ${identity}. Получите код на телефон ${to} и введите его.`,
    sendSms: 'Прислать код по SMS',
    call: 'Позвонить мне',
    sendAgainSms: 'Прислать SMS ещё раз',
    callAgain: 'Позвонить ещё раз',
    sent: (method: PhoneCodeMethod, to: string) =>
      method === 'sms' ? `Код отправлен по SMS на ${to}.` : `Вам позвонят на ${to} и продиктуют код.`,
    undeliverable: (method: PhoneCodeMethod) =>
      `Не удалось отправить код ${method === 'sms' ? 'по SMS' : 'звонком'}. Повторите позже или войдите другим способом.`,
    destination: 'На этот номер коды не отправляются. Обратитесь к администратору.',
    tooMany: 'Запрошено слишком много кодов. Подождите немного и повторите.',
    phoneLabel: 'Нет кода под рукой?',
  },
} as const;

/** The code prompt's intro for a user whose only code comes by SMS or call. */
export function phoneIntro(lang: PageLanguage, identity: string, phone: AccessPhoneModel): string {
  return TEXTS[lang].intro(identity, phone.to);
}

/** What the last press came to: a status line when a code went out, an alert when none did. */
export function phoneNotice(lang: PageLanguage, phone: AccessPhoneModel): Html | null {
  const t = TEXTS[lang];
  if (phone.sent)
    return html`<p class="notice" role="status" id="phone-sent">${ICONS.info}<span>${t.sent(phone.sent, phone.to)}</span></p>\n`;
  if (!phone.notSent) return null;
  const { method, reason } = phone.notSent;
  const text = reason === 'undeliverable' ? t.undeliverable(method) : reason === 'destination' ? t.destination : t.tooMany;
  return html`<p class="error" role="alert" id="phone-error">${ICONS.alert}<span>${text}</span></p>\n`;
}

/**
 * The buttons that send a code, in a form of their own: without scripts each is a plain POST of the
 * page's form token and `send=sms|call` (the code field's `required` would block them in its form).
 */
export function phoneSendForm(lang: PageLanguage, hidden: Record<string, string>, phone: AccessPhoneModel): Html {
  const t = TEXTS[lang];
  return html`<form method="post" class="phone-codes">
  ${hiddenInputs(hidden)}
  <p>${t.phoneLabel}</p>
  <button type="submit" class="secondary" name="${SEND_CODE_FIELD}" value="sms">${phone.sent === 'sms' ? t.sendAgainSms : t.sendSms}</button>
  <button type="submit" class="secondary" name="${SEND_CODE_FIELD}" value="call">${phone.sent === 'call' ? t.callAgain : t.call}</button>
</form>`;
}
