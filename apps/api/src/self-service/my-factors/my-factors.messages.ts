import { PageLanguage } from '../../pages/i18n/languages';
import { PortalFactorKind } from '../self-service-factors';

/** Why the "my factors" page shows no list. */
export type MyFactorsFinalReason = 'unknown' | 'expired' | 'otherBrowser' | 'tooManyCodes' | 'forged';

/** What the page says after a change. */
export type MyFactorsNotice =
  | 'confirmed'
  | 'added'
  | 'renamed'
  | 'removed'
  | 'lastFactor'
  | 'confirmFirst'
  | 'badName'
  | 'telegramUnavailable';

/** Every text of the page, one table per language; a key missing from one language does not compile. */
export interface MyFactorsMessages {
  title: string;
  intro: (who: string) => string;
  kinds: Record<PortalFactorKind, string>;
  none: string;
  confirmIntro: string;
  cannotConfirm: string;
  codeLabel: string;
  codeTitle: string;
  confirm: string;
  wrongCode: (left: number) => string;
  add: string;
  addTitle: string;
  addTelegram: string;
  telegramIntro: string;
  telegramOpen: string;
  telegramQr: string;
  telegramDone: string;
  addMobileApp: string;
  rename: string;
  nameLabel: string;
  remove: string;
  onlyOne: string;
  notices: Record<MyFactorsNotice, string>;
  finalTitle: Record<MyFactorsFinalReason, string>;
  final: Record<MyFactorsFinalReason, string>;
}

const en: MyFactorsMessages = {
  title: 'Your sign-in methods',
  intro: (who) => `Signed in as ${who}.`,
  kinds: { totp: 'Authenticator app', telegram: 'Telegram', mobileapp: 'Mobile app', phone: 'Phone' },
  none: 'You have no sign-in method yet.',
  confirmIntro: 'To change your sign-in methods, first confirm it is you: enter a code from your authenticator app.',
  cannotConfirm: 'None of your sign-in methods can confirm a change on this page. Ask your administrator.',
  codeLabel: 'Code',
  codeTitle: '6 to 8 digits',
  confirm: 'Confirm',
  wrongCode: (left) => `Wrong code. Attempts left: ${left}.`,
  add: 'Add an authenticator app',
  addTitle: 'Add an authenticator app',
  addTelegram: 'Add Telegram',
  addMobileApp: 'Add the Twofold Authenticator app',
  telegramIntro: 'Open the link in Telegram (or scan the QR code with your phone) and press Start. Then come back here.',
  telegramOpen: 'Open in Telegram',
  telegramQr: 'QR code of the Telegram link',
  telegramDone: 'Back to my sign-in methods',
  rename: 'Rename',
  nameLabel: 'Name',
  remove: 'Remove',
  onlyOne: 'Your only sign-in method cannot be removed.',
  notices: {
    confirmed: 'Confirmed. You can now change your sign-in methods.',
    added: 'The authenticator app was added.',
    renamed: 'The name was changed.',
    removed: 'The sign-in method was removed.',
    lastFactor: 'Your only sign-in method cannot be removed.',
    confirmFirst: 'Confirm it is you first.',
    badName: 'A name is 1 to 64 characters.',
    telegramUnavailable: 'Telegram cannot be reached right now. Try again later.',
  },
  finalTitle: {
    unknown: 'Link not found',
    expired: 'Link expired',
    otherBrowser: 'Opened in another browser',
    tooManyCodes: 'Too many wrong codes',
    forged: 'Request refused',
  },
  final: {
    unknown: 'This link is not valid. Open your sign-in methods again from the portal.',
    expired: 'This link has expired. Open your sign-in methods again from the portal.',
    otherBrowser: 'This link was opened in another browser. Open your sign-in methods again from the portal.',
    tooManyCodes: 'This page is closed. Open your sign-in methods again from the portal.',
    forged: 'The form was not sent from this page. Open your sign-in methods again from the portal.',
  },
};

const ru: MyFactorsMessages = {
  title: 'Ваши способы входа',
  intro: (who) => `Вы вошли как ${who}.`,
  kinds: { totp: 'Приложение-аутентификатор', telegram: 'Telegram', mobileapp: 'Мобильное приложение', phone: 'Телефон' },
  none: 'У вас пока нет способов входа.',
  confirmIntro: 'Чтобы изменить способы входа, сначала подтвердите, что это вы: введите код из приложения-аутентификатора.',
  cannotConfirm: 'Ни один из ваших способов входа не может подтвердить изменение на этой странице. Обратитесь к администратору.',
  codeLabel: 'Код',
  codeTitle: 'От 6 до 8 цифр',
  confirm: 'Подтвердить',
  wrongCode: (left) => `Неверный код. Осталось попыток: ${left}.`,
  add: 'Добавить приложение-аутентификатор',
  addTitle: 'Добавление приложения-аутентификатора',
  addTelegram: 'Добавить Telegram',
  addMobileApp: 'Добавить приложение Twofold Authenticator',
  telegramIntro: 'Откройте ссылку в Telegram (или отсканируйте QR-код телефоном) и нажмите «Запустить». Затем вернитесь сюда.',
  telegramOpen: 'Открыть в Telegram',
  telegramQr: 'QR-код ссылки Telegram',
  telegramDone: 'Вернуться к способам входа',
  rename: 'Переименовать',
  nameLabel: 'Название',
  remove: 'Удалить',
  onlyOne: 'Единственный способ входа нельзя удалить.',
  notices: {
    confirmed: 'Подтверждено. Теперь можно изменить способы входа.',
    added: 'Приложение-аутентификатор добавлено.',
    renamed: 'Название изменено.',
    removed: 'Способ входа удалён.',
    lastFactor: 'Единственный способ входа нельзя удалить.',
    confirmFirst: 'Сначала подтвердите, что это вы.',
    badName: 'Название — от 1 до 64 символов.',
    telegramUnavailable: 'Telegram сейчас недоступен. Попробуйте позже.',
  },
  finalTitle: {
    unknown: 'Ссылка не найдена',
    expired: 'Срок действия ссылки истёк',
    otherBrowser: 'Открыто в другом браузере',
    tooManyCodes: 'Слишком много неверных кодов',
    forged: 'Запрос отклонён',
  },
  final: {
    unknown: 'Ссылка недействительна. Откройте способы входа на портале ещё раз.',
    expired: 'Срок действия ссылки истёк. Откройте способы входа на портале ещё раз.',
    otherBrowser: 'Эта ссылка уже открыта в другом браузере. Откройте способы входа на портале ещё раз.',
    tooManyCodes: 'Страница закрыта. Откройте способы входа на портале ещё раз.',
    forged: 'Форма отправлена не с этой страницы. Откройте способы входа на портале ещё раз.',
  },
};

const MESSAGES: Record<PageLanguage, MyFactorsMessages> = { en, ru };

export function myFactorsMessagesOf(lang: PageLanguage): MyFactorsMessages {
  return MESSAGES[lang];
}
