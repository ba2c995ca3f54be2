import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AccessLanguage, ApprovalChoice, telegramLanguageOf } from '@twofold/domain';
import { ApprovalEntity, TelegramBindingsRepository } from '@twofold/persistence';
import { ApprovalMessage, ApprovalTransport, ApprovalTransports, Delivery } from '../approvals/approval-transport';
import { BotApiFailure, InlineKeyboard } from './telegram-bot-api';
import { encodeCallbackData } from './telegram-callback-data';
import { approvalQuestion, BUTTON_TEXTS, decidedText } from './telegram-messages';
import { TelegramRuntime } from './telegram-runtime';

/**
 * How long a delivery may take, retries included: a Bot API that throttles, fails or hangs turns the
 * approval Undeliverable after at most this, far inside the wait (55 s), so the call is answered
 * "could not deliver" well before any client gives up.
 */
export const TELEGRAM_DELIVERY_BUDGET_MS = 10_000;
/** Changing a message after the decision: best effort, shorter. */
export const TELEGRAM_EDIT_BUDGET_MS = 5_000;

/** What the transport keeps of a sent question, to change it after the decision. */
interface TelegramRef {
  chatId: string;
  messageId: number;
  language: AccessLanguage;
  text: string;
}

function isTelegramRef(ref: unknown): ref is TelegramRef {
  const r = ref as Partial<TelegramRef> | null;
  return typeof r?.chatId === 'string' && typeof r.messageId === 'number' && typeof r.text === 'string';
}

const FAILURES: Record<BotApiFailure, Exclude<Delivery, { delivered: true }>['failure']> = {
  refused: 'refused',
  unreachable: 'unreachable',
  timeout: 'timeout',
  throttled: 'throttled',
};

/**
 * Approvals through a Telegram chat bound to the user: a message naming the sign-in, with three
 * number buttons (a sign-in with a screen) or approve / "it wasn't me", each button's data bound by an
 * HMAC to the approval, the chat and the answer. Presses come back through TelegramUpdates.
 */
@Injectable()
export class TelegramTransport implements ApprovalTransport, OnModuleInit {
  readonly kind = 'Telegram' as const;
  private readonly logger = new Logger('TelegramTransport');

  constructor(
    private readonly runtime: TelegramRuntime,
    private readonly bindings: TelegramBindingsRepository,
    private readonly transports: ApprovalTransports,
  ) {}

  onModuleInit(): void {
    if (this.runtime.enabled) this.transports.register(this);
  }

  keyboard(approvalId: string, chatId: string, language: AccessLanguage, choices: readonly number[] | null): InlineKeyboard {
    const button = (text: string, choice: ApprovalChoice) => ({
      text,
      callback_data: encodeCallbackData(this.runtime.callbackKey, approvalId, chatId, choice),
    });
    const notMe = button(BUTTON_TEXTS[language].notMe, { kind: 'notMe' });
    if (choices) return [choices.map((number) => button(String(number), { kind: 'number', number })), [notMe]];
    return [[button(BUTTON_TEXTS[language].approve, { kind: 'approve' }), notMe]];
  }

  async deliver(message: ApprovalMessage): Promise<Delivery> {
    const api = this.runtime.api;
    if (!api) return { delivered: false, failure: 'notConfigured' };
    let chat;
    try {
      chat = await this.bindings.chatOf(message.accountId, message.authenticatorId);
    } catch {
      return { delivered: false, failure: 'unreachable' };
    }
    if (!chat || chat.disabled) return { delivered: false, failure: 'notBound' };
    const language = telegramLanguageOf(chat.languageCode);
    const text = approvalQuestion(language, message);
    const sent = await api.sendMessage(
      chat.chatId,
      text,
      this.keyboard(message.approvalId, chat.chatId, language, message.choices),
      TELEGRAM_DELIVERY_BUDGET_MS,
    );
    if (!sent.ok) {
      // the server's words (e.g. "Forbidden: bot was blocked by the user"), never the request's URL
      this.logger.warn(`approval not delivered: ${sent.failure}${sent.errorCode ? ` (${sent.errorCode}: ${sent.description ?? ''})` : ''}`);
      return { delivered: false, failure: FAILURES[sent.failure] };
    }
    const ref: TelegramRef = { chatId: chat.chatId, messageId: sent.result.message_id, language, text };
    return { delivered: true, ref: { ...ref } };
  }

  /** The question, now with the decision and without its buttons. */
  async showOutcome(approval: ApprovalEntity): Promise<void> {
    const api = this.runtime.api;
    const ref = approval.deliveryRef;
    if (!api || !isTelegramRef(ref)) return;
    const language = ref.language === 'en' ? 'en' : 'ru';
    const edited = await api.editMessageText(
      ref.chatId,
      ref.messageId,
      decidedText(language, ref.text, approval.status, approval.rejectReason),
      TELEGRAM_EDIT_BUDGET_MS,
    );
    if (!edited.ok) this.logger.warn(`approval message not changed after the decision: ${edited.failure}`);
  }
}
