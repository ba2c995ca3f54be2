import { AccessLanguage, ACCESS_REQUEST_MAX_FAILED_CODES, DeliveryMethod, PhoneCodeLimit, PhoneCodeMethod } from '@twofold/domain';

/**
 * The `replyMessage` of the `ra` family: a VPN shows it to the user as the RADIUS
 * Reply-Message, so it is short (at most 253 bytes of UTF-8, tested), in the request's language, and
 * never holds a code or key. The envelope's `message` of a refusal is the English text, except for
 * the strings clients look for (`UserNotRegistered`).
 */
export type RaReply =
  | { kind: 'granted' }
  /** granted by a recovery code, with few of them left: the user is told to get new ones */
  | { kind: 'grantedFewRecoveryCodes'; codesLeft: number }
  | { kind: 'enterCode' }
  | { kind: 'wrongCodeRetry'; attemptsLeft: number }
  | { kind: 'wrongCode' }
  /** a code already spent (a retransmission, or the same time step again): not a wrong code */
  | { kind: 'codeAlreadyUsed' }
  | { kind: 'codeAlreadyUsedRetry' }
  /** too many wrong codes from the user's address or through this resource (libs/domain code-lockouts.ts) */
  | { kind: 'lockedOut'; minutes: number }
  | { kind: 'unknownUser' }
  | { kind: 'locked' }
  | { kind: 'noSecondFactor' }
  | { kind: 'unusableSecondFactor' }
  /** every authenticator of the user was disabled by an administrator */
  | { kind: 'secondFactorDisabled' }
  /** the user's address is on a Deny IP list */
  | { kind: 'networkDenied' }
  | { kind: 'deliveryUnavailable'; method: DeliveryMethod }
  | { kind: 'deliveryUnavailableRetry'; method: DeliveryMethod }
  | { kind: 'requestNotValid' }
  | { kind: 'expired' }
  | { kind: 'badRequest' }
  /** an approval was asked of the person on their phone: the reply after their answer, or why there was none */
  | { kind: 'noApprovalFactor' }
  | { kind: 'approvalRejected' }
  | { kind: 'approvalNotConfirmed' }
  | { kind: 'approvalUndeliverable' }
  | { kind: 'approvalCancelled' }
  | { kind: 'tooManyApprovals' }
  /** a code was sent to the phone shown masked (`+7 ••• •• 12`): never the number itself */
  | { kind: 'codeSent'; method: PhoneCodeMethod; to: string }
  | { kind: 'phoneCodeUndeliverable'; method: PhoneCodeMethod }
  | { kind: 'phoneCodeLimited'; method: PhoneCodeMethod; limit: PhoneCodeLimit };

const METHOD_NAMES: Record<AccessLanguage, Record<DeliveryMethod, string>> = {
  en: { telegram: 'Telegram', push: 'Mobile push', sms: 'SMS', call: 'A phone call' },
  ru: { telegram: 'Telegram', push: 'push-уведомление', sms: 'SMS', call: 'звонок' },
};

const ATTEMPTS = ACCESS_REQUEST_MAX_FAILED_CODES;

const TEXTS: Record<AccessLanguage, (reply: RaReply) => string> = {
  en: (reply) => {
    switch (reply.kind) {
      case 'granted':
        return 'Access granted.';
      case 'grantedFewRecoveryCodes':
        return `Access granted. Recovery codes left: ${reply.codesLeft}. Ask your administrator for new ones.`;
      case 'enterCode':
        return 'Enter the code from your authenticator app or token.';
      case 'wrongCodeRetry':
        return `Wrong code. Enter the code again (${reply.attemptsLeft} of ${ATTEMPTS} attempts left).`;
      case 'wrongCode':
        return 'Access denied: wrong code.';
      case 'codeAlreadyUsed':
        return 'Access denied: this code has already been used. Wait for the next code.';
      case 'codeAlreadyUsedRetry':
        return 'This code has already been used. Wait for the next code and enter it.';
      case 'lockedOut':
        return `Access denied: too many wrong codes. Try again in ${reply.minutes} min.`;
      case 'unknownUser':
        return 'Access denied: the user is not registered.';
      case 'locked':
        return 'Access denied: the user is locked.';
      case 'noSecondFactor':
        return 'Access denied: set up a second factor first.';
      case 'unusableSecondFactor':
        return 'Access denied: your second factor cannot be used here. Set up an authenticator app or token.';
      case 'secondFactorDisabled':
        return 'Access denied: your second factor has been disabled. Contact your administrator.';
      case 'networkDenied':
        return 'Access denied: access from this network is not allowed.';
      case 'deliveryUnavailable':
        return `Access denied: ${METHOD_NAMES.en[reply.method]} is not available. Append the code from your authenticator app or token to your password.`;
      case 'deliveryUnavailableRetry':
        return `${METHOD_NAMES.en[reply.method]} is not available. Enter the code from your authenticator app or token.`;
      case 'requestNotValid':
        return 'Access denied: this sign-in request is no longer valid. Sign in again.';
      case 'expired':
        return 'Access denied: the sign-in request has expired. Sign in again.';
      case 'badRequest':
        return 'Access denied: the request could not be read.';
      case 'noApprovalFactor':
        return 'Access denied: no confirmation method is set up. Set up Telegram or the mobile app first.';
      case 'approvalRejected':
        return 'Access denied: the sign-in was rejected on your device.';
      case 'approvalNotConfirmed':
        return 'Access denied: the sign-in was not confirmed in time.';
      case 'approvalUndeliverable':
        return 'Access denied: could not deliver the confirmation request to your device. Try again later.';
      case 'approvalCancelled':
        return 'Access denied: the service is restarting. Try again.';
      case 'tooManyApprovals':
        return 'Access denied: too many requests. Try again later.';
      case 'codeSent':
        return reply.method === 'sms'
          ? `The code was sent by SMS to ${reply.to}. Enter the code.`
          : `A call to ${reply.to} will read the code to you. Enter the code.`;
      case 'phoneCodeUndeliverable':
        return `Access denied: could not send the code ${reply.method === 'sms' ? 'by SMS' : 'by a call'}. Try again later.`;
      case 'phoneCodeLimited':
        return reply.limit === 'destination'
          ? 'Access denied: codes cannot be sent to this phone number.'
          : 'Access denied: too many codes requested. Try again later.';
    }
  },
  ru: (reply) => {
    switch (reply.kind) {
      case 'granted':
        return 'Доступ разрешён.';
      case 'grantedFewRecoveryCodes':
        return `Доступ разрешён. Осталось кодов восстановления: ${reply.codesLeft}. Запросите у администратора новые.`;
      case 'enterCode':
        return 'Введите код из приложения-аутентификатора или токена.';
      case 'wrongCodeRetry':
        return `Неверный код. Введите код ещё раз (осталось попыток: ${reply.attemptsLeft} из ${ATTEMPTS}).`;
      case 'wrongCode':
        return 'Доступ запрещён: неверный код.';
      case 'codeAlreadyUsed':
        return 'Доступ запрещён: этот код уже использован. Дождитесь следующего кода.';
      case 'codeAlreadyUsedRetry':
        return 'Этот код уже использован. Дождитесь следующего кода и введите его.';
      case 'lockedOut':
        return `Доступ запрещён: слишком много неверных кодов. Повторите через ${reply.minutes} мин.`;
      case 'unknownUser':
        return 'Доступ запрещён: пользователь не зарегистрирован.';
      case 'locked':
        return 'Доступ запрещён: пользователь заблокирован.';
      case 'noSecondFactor':
        return 'Доступ запрещён: сначала настройте второй фактор.';
      case 'unusableSecondFactor':
        return 'Доступ запрещён: ваш второй фактор здесь недоступен. Настройте приложение-аутентификатор или токен.';
      case 'secondFactorDisabled':
        return 'Доступ запрещён: ваш второй фактор отключён. Обратитесь к администратору.';
      case 'networkDenied':
        return 'Доступ запрещён: вход из этой сети не разрешён.';
      case 'deliveryUnavailable':
        return `Доступ запрещён: способ «${METHOD_NAMES.ru[reply.method]}» недоступен. Добавьте код из приложения или токена к паролю.`;
      case 'deliveryUnavailableRetry':
        return `Способ «${METHOD_NAMES.ru[reply.method]}» недоступен. Введите код из приложения-аутентификатора или токена.`;
      case 'requestNotValid':
        return 'Доступ запрещён: запрос на вход больше не действует. Войдите заново.';
      case 'expired':
        return 'Доступ запрещён: срок действия запроса истёк. Войдите заново.';
      case 'badRequest':
        return 'Доступ запрещён: запрос не удалось прочитать.';
      case 'noApprovalFactor':
        return 'Доступ запрещён: способ подтверждения не настроен. Сначала подключите Telegram или мобильное приложение.';
      case 'approvalRejected':
        return 'Доступ запрещён: вход отклонён на вашем устройстве.';
      case 'approvalNotConfirmed':
        return 'Доступ запрещён: вход не подтверждён вовремя.';
      case 'approvalUndeliverable':
        return 'Доступ запрещён: не удалось доставить запрос подтверждения на ваше устройство. Повторите позже.';
      case 'approvalCancelled':
        return 'Доступ запрещён: сервис перезапускается. Повторите попытку.';
      case 'tooManyApprovals':
        return 'Доступ запрещён: слишком много запросов. Повторите позже.';
      case 'codeSent':
        return reply.method === 'sms'
          ? `Код отправлен по SMS на ${reply.to}. Введите код.`
          : `Вам позвонят на ${reply.to} и продиктуют код. Введите код.`;
      case 'phoneCodeUndeliverable':
        return `Доступ запрещён: не удалось отправить код ${reply.method === 'sms' ? 'по SMS' : 'звонком'}. Повторите позже.`;
      case 'phoneCodeLimited':
        return reply.limit === 'destination'
          ? 'Доступ запрещён: на этот номер коды не отправляются.'
          : 'Доступ запрещён: запрошено слишком много кодов. Повторите позже.';
    }
  },
};

/** The exact string clients look for when the identity is unknown to the account. */
export const USER_NOT_REGISTERED = 'UserNotRegistered';

export function raReplyText(reply: RaReply, language: AccessLanguage): string {
  return TEXTS[language](reply);
}

/** The envelope's `message` for a refusal: what clients match on, else the English reply. */
export function raRefusalMessage(reply: RaReply): string {
  return reply.kind === 'unknownUser' ? USER_NOT_REGISTERED : TEXTS.en(reply);
}
