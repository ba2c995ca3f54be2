import { FakeTelegram } from './fake-telegram';

/**
 * `npm run fake-telegram`: the fake Bot API on 127.0.0.1 for trying the bot without Telegram. Prints
 * the settings to start the API with; its page (`/`) shows the chats and lets you send `/start` and
 * press buttons as a chat.
 */
async function main(): Promise<void> {
  const port = Number(process.env['FAKE_TELEGRAM_PORT'] ?? 8081);
  const token = process.env['FAKE_TELEGRAM_TOKEN'] ?? '123456:fake-telegram-token-for-local-tries';
  const fake = await FakeTelegram.start({ token, port, botUsername: process.env['FAKE_TELEGRAM_BOT'] ?? 'TwofoldLocalBot' });
  process.stdout.write(
    [
      `fake Telegram Bot API on ${fake.url} (open it in a browser to play the user)`,
      'start the API with:',
      `  TELEGRAM_BOT_TOKEN=${token} TELEGRAM_API_URL=${fake.url} npm start`,
      '',
    ].join('\n'),
  );
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
