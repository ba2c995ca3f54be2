/** The app's texts in English and Russian, chosen by the browser's language (navigator.language). */
export type Language = 'en' | 'ru';

export function languageOf(tag: string | undefined): Language {
  return tag?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

const EN = {
  title: 'Twofold Authenticator',
  loading: 'Loading…',
  enrollTitle: 'Add your account',
  enrollLead:
    'This app will confirm your sign-ins and show codes. It makes a key that never leaves this device; allow notifications to be asked at once.',
  enrollButton: 'Add to this device',
  enrolling: 'Adding…',
  enrolledTitle: 'Account added',
  enrolledLead: (account: string, identity: string) => `${identity} at ${account} is on this device. Sign-ins you start will ask here.`,
  enrolledNoPush: 'Notifications are off: open this app to see sign-ins waiting for you.',
  enrollGone: 'This enrollment link is no longer valid. Ask for a new one on the sign-in page.',
  enrollFailed: 'The account could not be added. Try again.',
  unsupported: 'This browser cannot keep a device key (WebCrypto and IndexedDB are needed).',
  accounts: 'Accounts',
  noAccounts: 'No account yet. Open the link or QR code from the sign-in page to add one.',
  showCode: 'Show code',
  hideCode: 'Hide code',
  codeFor: (account: string) => `One-time code for ${account}`,
  secondsLeft: (seconds: number) => `valid for ${seconds} s`,
  pending: 'Waiting for you',
  noPending: 'No sign-in is waiting.',
  refresh: 'Check again',
  offline: 'No connection: sign-ins waiting will show when you are online. Codes work offline.',
  signInTo: (resource: string) => `Sign-in to ${resource}`,
  from: (address: string) => `from ${address}`,
  at: 'at',
  pickNumber: 'Pick the number shown on the sign-in page',
  approve: 'Approve',
  notMe: 'It wasn’t me',
  sending: 'Sending…',
  approved: 'Approved',
  approvedLead: 'The sign-in goes on.',
  rejected: 'Denied',
  rejectedLead: 'The sign-in was refused. If it was not you, tell your administrator.',
  ignored: 'No longer waiting',
  ignoredLead: 'This sign-in was already decided or has expired.',
  failed: 'The decision could not be sent. Try again.',
  back: 'Back',
  notificationsOff: 'Notifications are off for this app.',
  turnOnNotifications: 'Turn on notifications',
  notificationTitle: 'Confirm the sign-in',
  notificationBody: 'Open to approve or deny it.',
};

const RU: typeof EN = {
  title: 'Twofold Authenticator',
  loading: 'Загрузка…',
  enrollTitle: 'Добавьте учётную запись',
  enrollLead:
    'Приложение будет подтверждать ваши входы и показывать коды. Оно создаст ключ, который не покидает это устройство; разрешите уведомления, чтобы запросы приходили сразу.',
  enrollButton: 'Добавить на это устройство',
  enrolling: 'Добавляем…',
  enrolledTitle: 'Учётная запись добавлена',
  enrolledLead: (account: string, identity: string) =>
    `${identity} в ${account} теперь на этом устройстве. Ваши входы будут запрашивать подтверждение здесь.`,
  enrolledNoPush: 'Уведомления выключены: откройте приложение, чтобы увидеть ожидающие входы.',
  enrollGone: 'Эта ссылка больше не действует. Получите новую на странице входа.',
  enrollFailed: 'Не удалось добавить учётную запись. Попробуйте ещё раз.',
  unsupported: 'Этот браузер не может хранить ключ устройства (нужны WebCrypto и IndexedDB).',
  accounts: 'Учётные записи',
  noAccounts: 'Учётных записей пока нет. Откройте ссылку или QR-код со страницы входа.',
  showCode: 'Показать код',
  hideCode: 'Скрыть код',
  codeFor: (account: string) => `Одноразовый код для ${account}`,
  secondsLeft: (seconds: number) => `действует ${seconds} с`,
  pending: 'Ждут вашего ответа',
  noPending: 'Нет ожидающих входов.',
  refresh: 'Проверить ещё раз',
  offline: 'Нет связи: ожидающие входы появятся, когда связь вернётся. Коды работают без сети.',
  signInTo: (resource: string) => `Вход в ${resource}`,
  from: (address: string) => `с адреса ${address}`,
  at: 'в',
  pickNumber: 'Выберите число, показанное на странице входа',
  approve: 'Подтвердить',
  notMe: 'Это не я',
  sending: 'Отправляем…',
  approved: 'Подтверждено',
  approvedLead: 'Вход продолжается.',
  rejected: 'Отклонено',
  rejectedLead: 'Вход отклонён. Если это были не вы, сообщите администратору.',
  ignored: 'Запрос уже неактуален',
  ignoredLead: 'Этот вход уже решён или истёк.',
  failed: 'Не удалось отправить ответ. Попробуйте ещё раз.',
  back: 'Назад',
  notificationsOff: 'Уведомления для приложения выключены.',
  turnOnNotifications: 'Включить уведомления',
  notificationTitle: 'Подтвердите вход',
  notificationBody: 'Откройте, чтобы подтвердить или отклонить.',
};

export type Texts = typeof EN;

export function textsFor(language: Language): Texts {
  return language === 'ru' ? RU : EN;
}
