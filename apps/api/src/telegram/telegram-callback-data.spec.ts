import { randomBytes, randomUUID } from 'node:crypto';
import { ApprovalChoice } from '@twofold/domain';
import { CALLBACK_DATA_MAX_BYTES, callbackDataKey, decodeCallbackData, encodeCallbackData } from './telegram-callback-data';

describe("Telegram buttons' callback_data", () => {
  const key = callbackDataKey(randomBytes(32));
  const approvalId = randomUUID();
  const chat = '4503599627370495';
  const choices: ApprovalChoice[] = [
    { kind: 'approve' },
    { kind: 'notMe' },
    { kind: 'number', number: 10 },
    { kind: 'number', number: 99 },
  ];

  it('fits in 64 bytes and reads back as the approval and the answer, from the chat it was made for', () => {
    for (const choice of choices) {
      const data = encodeCallbackData(key, approvalId, chat, choice);
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
      expect(decodeCallbackData(key, data, chat)).toEqual({ approvalId, choice });
    }
  });

  it('a press from another chat fails the HMAC', () => {
    const data = encodeCallbackData(key, approvalId, chat, { kind: 'approve' });
    expect(decodeCallbackData(key, data, '4503599627370494')).toBeNull();
    expect(decodeCallbackData(key, data, `-${chat}`)).toBeNull();
  });

  it('data changed in any byte, made with another key, or made up decides nothing', () => {
    const data = encodeCallbackData(key, approvalId, chat, { kind: 'number', number: 42 });
    const bytes = Buffer.from(data, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i] ^= 0x01;
      expect(decodeCallbackData(key, changed.toString('base64url'), chat)).toBeNull();
    }
    expect(decodeCallbackData(callbackDataKey(randomBytes(32)), data, chat)).toBeNull();
    for (const forged of ['', 'approve', 'a'.repeat(46), 'a'.repeat(65), `${data}=`, data.slice(0, -1), `${data}A`, '💥']) {
      expect(decodeCallbackData(key, forged, chat)).toBeNull();
    }
  });

  it('the answer cannot be switched: approve data is not a number press', () => {
    const approve = encodeCallbackData(key, approvalId, chat, { kind: 'approve' });
    const body = Buffer.from(approve, 'base64url');
    body[17] = 42;
    expect(decodeCallbackData(key, body.toString('base64url'), chat)).toBeNull();
  });
});
