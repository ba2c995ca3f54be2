import { AccessLanguage, ApprovalStatus } from '@twofold/domain';
import { cutText } from '@twofold/domain';
import { ApprovalMessage } from '../approvals/approval-transport';

/**
 * What the bot writes, in the chat's language (Telegram's `language_code` at binding): plain text
 * (no parse mode, so names cannot inject markup), naming whose service, which resource, from where
 * and when; never a code, key or token.
 */

/** Names are cut so that a message stays far below Telegram's 4096 characters. */
const NAME_MAX_CHARS = 120;

function utcTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function approvalQuestion(language: AccessLanguage, message: ApprovalMessage): string {
  const account = cutText(message.accountName, NAME_MAX_CHARS);
  const resource = cutText(message.resourceName, NAME_MAX_CHARS);
  const address = message.address ?? (language === 'ru' ? 'неизвестен' : 'unknown');
  if (language === 'ru') {
    return [
      `Вход в «${resource}» (${account})`,
      `Адрес: ${address}`,
      `Время: ${utcTime(message.at)}`,
      '',
      message.choices ? 'Выберите число, которое показано на экране входа.' : 'Это вы входите?',
    ].join('\n');
  }
  return [
    `Sign-in to "${resource}" (${account})`,
    `Address: ${address}`,
    `Time: ${utcTime(message.at)}`,
    '',
    message.choices ? 'Pick the number shown on the sign-in screen.' : 'Is this you signing in?',
  ].join('\n');
}

export const BUTTON_TEXTS: Record<AccessLanguage, { approve: string; notMe: string }> = {
  en: { approve: 'Yes, it is me', notMe: "It wasn't me" },
  ru: { approve: 'Да, это я', notMe: 'Это не я' },
};

type Shown = Exclude<ApprovalStatus, 'Pending'> | 'RejectedWrongNumber';

const OUTCOMES: Record<AccessLanguage, Record<Shown, string>> = {
  en: {
    Approved: 'Approved: the sign-in continues.',
    Rejected: 'Rejected: the sign-in was refused.',
    RejectedWrongNumber: 'A wrong number was picked: the sign-in was refused.',
    Expired: 'Not answered in time: the sign-in was refused.',
    Cancelled: 'The sign-in was cancelled.',
    Undeliverable: 'The sign-in was refused.',
  },
  ru: {
    Approved: 'Подтверждено: вход продолжается.',
    Rejected: 'Отклонено: во входе отказано.',
    RejectedWrongNumber: 'Выбрано неверное число: во входе отказано.',
    Expired: 'Нет ответа вовремя: во входе отказано.',
    Cancelled: 'Вход отменён.',
    Undeliverable: 'Во входе отказано.',
  },
};

/** The question's text after the decision: the question itself, then what became of it (the buttons go). */
export function decidedText(language: AccessLanguage, question: string, status: ApprovalStatus, rejectReason: string | null): string {
  if (status === 'Pending') return question;
  const shown: Shown = status === 'Rejected' && rejectReason === 'wrongNumber' ? 'RejectedWrongNumber' : status;
  return `${question}\n\n${OUTCOMES[language][shown]}`;
}

/** A button's short answer (a toast in the chat). */
export const PRESS_ANSWERS: Record<AccessLanguage, { approved: string; rejected: string; expired: string }> = {
  en: { approved: 'Approved', rejected: 'Rejected', expired: 'This request has expired.' },
  ru: { approved: 'Подтверждено', rejected: 'Отклонено', expired: 'Запрос устарел.' },
};

/** Replies to `/start`. */
export const START_REPLIES: Record<
  AccessLanguage,
  { bound: (account: string) => string; alreadyBound: string; invalid: string; hello: string }
> = {
  en: {
    bound: (account) => `Done: this chat now confirms your sign-ins to ${cutText(account, NAME_MAX_CHARS)}.`,
    alreadyBound: 'This chat already confirms your sign-ins.',
    invalid: 'This link is no longer valid. Open a new one on the sign-in page.',
    hello: 'To confirm sign-ins here, open the Telegram link on your sign-in or enrollment page.',
  },
  ru: {
    bound: (account) => `Готово: в этом чате вы будете подтверждать входы в ${cutText(account, NAME_MAX_CHARS)}.`,
    alreadyBound: 'Этот чат уже подтверждает ваши входы.',
    invalid: 'Ссылка больше не действует. Откройте новую на странице входа.',
    hello: 'Чтобы подтверждать входы здесь, откройте ссылку на Telegram со страницы входа или подключения.',
  },
};
