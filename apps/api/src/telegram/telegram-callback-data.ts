import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { purposeKey } from '../config/purpose-keys';
import { APPROVAL_NUMBER_MAX, APPROVAL_NUMBER_MIN, ApprovalChoice } from '@twofold/domain';

/**
 * A button's `callback_data` (Telegram keeps at most 64 bytes of it): which approval, which answer,
 * and an HMAC that binds both to the chat the message was sent to. Telegram sends the data back with
 * the chat the press came from; a press from another chat, data changed or made up, fails the HMAC
 * and decides nothing. (A second press, or a press on a decided or expired approval, passes the HMAC
 * and is refused by the state machine.)
 *
 * Layout, base64url without padding (46 characters): version (1 byte) | approval id (16 bytes, the
 * UUID) | answer (1 byte: 0 approve, 1 "it wasn't me", 10-99 that number) | HMAC-SHA-256 truncated to
 * 16 bytes, over a purpose label, the 18 bytes before it and the chat id.
 */
export const CALLBACK_DATA_MAX_BYTES = 64;
const VERSION = 1;
const MAC_BYTES = 16;
const BODY_BYTES = 18;
const PURPOSE = 'twofold/telegram-callback/v1';
const APPROVE = 0;
const NOT_ME = 1;

/** The HMAC key, derived from SECRET_ENCRYPTION_KEY for this purpose alone (never the key itself). */
export function callbackDataKey(encryptionKey: Buffer): KeyObject {
  return purposeKey(encryptionKey, 'twofold telegram callback data');
}

function mac(key: KeyObject, body: Buffer, chatId: string): Buffer {
  return createHmac('sha256', key)
    .update(PURPOSE)
    .update(Buffer.from([0]))
    .update(body)
    .update(Buffer.from([0]))
    .update(chatId, 'utf8')
    .digest()
    .subarray(0, MAC_BYTES);
}

function choiceByte(choice: ApprovalChoice): number {
  if (choice.kind === 'approve') return APPROVE;
  if (choice.kind === 'notMe') return NOT_ME;
  return choice.number;
}

function choiceOf(byte: number): ApprovalChoice | null {
  if (byte === APPROVE) return { kind: 'approve' };
  if (byte === NOT_ME) return { kind: 'notMe' };
  if (byte >= APPROVAL_NUMBER_MIN && byte <= APPROVAL_NUMBER_MAX) return { kind: 'number', number: byte };
  return null;
}

export function encodeCallbackData(key: KeyObject, approvalId: string, chatId: string, choice: ApprovalChoice): string {
  const body = Buffer.concat([Buffer.from([VERSION]), Buffer.from(approvalId.replace(/-/g, ''), 'hex'), Buffer.from([choiceByte(choice)])]);
  return Buffer.concat([body, mac(key, body, chatId)]).toString('base64url');
}

const UUID_HEX = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/;

/** The approval and the answer of a press from `chatId`, or null when the data was not made for that chat by this service. */
export function decodeCallbackData(key: KeyObject, data: string, chatId: string): { approvalId: string; choice: ApprovalChoice } | null {
  if (data.length > CALLBACK_DATA_MAX_BYTES || !/^[A-Za-z0-9_-]+$/.test(data)) return null;
  const bytes = Buffer.from(data, 'base64url');
  if (bytes.length !== BODY_BYTES + MAC_BYTES || bytes[0] !== VERSION) return null;
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(bytes.subarray(BODY_BYTES), mac(key, body, chatId))) return null;
  const choice = choiceOf(body[17]);
  const hex = UUID_HEX.exec(body.subarray(1, 17).toString('hex'));
  if (!choice || !hex) return null;
  return { approvalId: hex.slice(1).join('-'), choice };
}
