import { RouteDoc } from '../openapi/api-route';

export const TELEGRAM_DOCS = {
  updates: {
    summary: "Telegram's webhook: button presses and /start messages for the bot",
    description:
      'Called by Telegram only, with the `X-Telegram-Bot-Api-Secret-Token` header registered by the CLI (`telegram set-webhook`). ' +
      'Exists when a bot is configured in webhook mode (TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET); otherwise 404. ' +
      'Answers 200 `{}` once the update is handled (an update it does not use included), 503 when the database cannot answer (Telegram sends it again).',
    envelope: 'plain',
    body: {
      schema: {
        type: 'object',
        required: ['update_id'],
        properties: { update_id: { type: 'integer' }, message: { type: 'object' }, callback_query: { type: 'object' } },
      },
      example: { update_id: 1001, message: { message_id: 7, chat: { id: 4242, type: 'private' }, text: '/start' } },
    },
    ok: { schema: { type: 'object', additionalProperties: false }, example: {} },
    errors: { 400: 'update_id must be an integer.', 404: 'Not found.' },
  },
} satisfies Record<string, RouteDoc>;
