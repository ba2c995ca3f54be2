import { Injectable, Logger } from '@nestjs/common';
import { AccessLanguage, parseBotCommand, telegramLanguageOf } from '@twofold/domain';
import { ApprovalsRepository, TelegramBindingsRepository } from '@twofold/persistence';
import { ApprovalsService } from '../approvals/approvals.service';
import { TelegramBindingService } from './telegram-binding.service';
import { decodeCallbackData } from './telegram-callback-data';
import { PRESS_ANSWERS, START_REPLIES } from './telegram-messages';
import { TelegramRuntime } from './telegram-runtime';
import { TelegramTransport } from './telegram.transport';

/** Answering a press or replying to `/start`: best effort, short. */
export const TELEGRAM_REPLY_BUDGET_MS = 5_000;

/** What of an update is read; everything else of Telegram's objects is ignored. */
interface CallbackQuery {
  id: string;
  data: string | null;
  chatId: string | null;
  languageCode: string | null;
}

interface PrivateMessage {
  chatId: string;
  text: string | undefined;
  languageCode: string | null;
  username: string | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Telegram's ids are integers of up to 52 bits: kept as decimal strings. */
function idOf(value: unknown): string | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : null;
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function readCallbackQuery(update: Record<string, unknown>): CallbackQuery | null {
  const query = record(update['callback_query']);
  const id = stringOf(query?.['id']);
  if (!query || !id) return null;
  const from = record(query['from']);
  const chat = record(record(query['message'])?.['chat']);
  return { id, data: stringOf(query['data']), chatId: idOf(chat?.['id']), languageCode: stringOf(from?.['language_code']) };
}

export function readPrivateMessage(update: Record<string, unknown>): PrivateMessage | null {
  const message = record(update['message']);
  const chat = record(message?.['chat']);
  const chatId = idOf(chat?.['id']);
  if (!message || !chat || !chatId || chat['type'] !== 'private') return null;
  const from = record(message['from']);
  return {
    chatId,
    text: stringOf(message['text']) ?? undefined,
    languageCode: stringOf(from?.['language_code']),
    username: stringOf(from?.['username']),
  };
}

/**
 * Updates from Telegram, whether the webhook or the long poll brought them: button presses decide
 * approvals, `/start <payload>` binds a chat. Anything else (other chats, other messages, malformed
 * objects) is ignored. A press that changes nothing — forged or altered data, another chat, a second
 * press, a decided or expired approval, a disabled or deleted factor — is answered "expired".
 */
@Injectable()
export class TelegramUpdates {
  private readonly logger = new Logger('TelegramUpdates');

  constructor(
    private readonly runtime: TelegramRuntime,
    private readonly approvalsService: ApprovalsService,
    private readonly approvals: ApprovalsRepository,
    private readonly bindings: TelegramBindingsRepository,
    private readonly binding: TelegramBindingService,
    private readonly transport: TelegramTransport,
  ) {}

  /** One update. Throws only when the database cannot answer (the update is then delivered again). */
  async handle(raw: unknown): Promise<void> {
    const update = record(raw);
    if (!update || typeof update['update_id'] !== 'number') return;
    const press = readCallbackQuery(update);
    if (press) return this.onPress(press);
    const message = readPrivateMessage(update);
    if (message) return this.onMessage(message);
  }

  private async onPress(press: CallbackQuery): Promise<void> {
    const language = telegramLanguageOf(press.languageCode);
    const decided = await this.decide(press);
    const answer =
      decided === 'approved'
        ? PRESS_ANSWERS[language].approved
        : decided === 'rejected'
          ? PRESS_ANSWERS[language].rejected
          : PRESS_ANSWERS[language].expired;
    await this.reply((api) => api.answerCallbackQuery(press.id, answer, TELEGRAM_REPLY_BUDGET_MS));
  }

  /** The press's effect: decided (approved or rejected), or nothing. */
  private async decide(press: CallbackQuery): Promise<'approved' | 'rejected' | 'nothing'> {
    if (!press.data || !press.chatId) return 'nothing';
    const decoded = decodeCallbackData(this.runtime.callbackKey, press.data, press.chatId);
    if (!decoded) return 'nothing';
    const approval = await this.approvals.findForDevice(decoded.approvalId);
    if (!approval || approval.factor !== 'Telegram' || !approval.authenticatorId) return 'nothing';
    // the approval's own factor must still be this chat, enabled: a deleted or disabled Telegram factor answers nothing
    const chat = await this.bindings.chatOf(approval.accountId, approval.authenticatorId);
    if (!chat || chat.disabled || chat.chatId !== press.chatId) return 'nothing';
    const answer = await this.approvalsService.answerFromDevice(approval, decoded.choice, {
      decidedBy: `telegram:${press.chatId}`,
      address: null,
    });
    if (answer.kind === 'ignored') return 'nothing';
    void this.transport.showOutcome(answer.approval);
    return answer.approval.status === 'Approved' ? 'approved' : 'rejected';
  }

  private async onMessage(message: PrivateMessage): Promise<void> {
    const command = parseBotCommand(message.text);
    if (command.kind === 'other') return;
    const language: AccessLanguage = telegramLanguageOf(message.languageCode);
    const replies = START_REPLIES[language];
    let text: string;
    if (command.kind === 'startInvalid') text = replies.invalid;
    else if (command.payload === null) text = replies.hello;
    else {
      const outcome = await this.binding.bind(command.payload, {
        chatId: message.chatId,
        languageCode: message.languageCode,
        username: message.username,
      });
      text =
        outcome.kind === 'bound'
          ? replies.bound(outcome.accountName)
          : outcome.kind === 'alreadyBound'
            ? replies.alreadyBound
            : replies.invalid;
    }
    await this.reply((api) => api.sendMessage(message.chatId, text, null, TELEGRAM_REPLY_BUDGET_MS));
  }

  private async reply(send: (api: NonNullable<TelegramRuntime['api']>) => Promise<{ ok: boolean }>): Promise<void> {
    const api = this.runtime.api;
    if (!api) return;
    const sent = await send(api);
    if (!sent.ok) this.logger.warn('a reply to Telegram could not be sent');
  }
}
