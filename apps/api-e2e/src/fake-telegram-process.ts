import { ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import { freePort, ROOT } from './processes';

/**
 * The fake Telegram Bot API (`npm run fake-telegram`) as a process of its own, driven through its
 * JSON control routes as a person would drive it from its page: chats write to the bot and press
 * buttons, and `/_fake/state` shows what the bot sent.
 */
export interface FakeTelegramProcess {
  url: string;
  token: string;
  /** the chat writes `text` to the bot (the chat becomes known to the fake) */
  send(chatId: number, text: string): Promise<void>;
  press(chatId: number, messageId: number, data: string): Promise<number | null>;
  /** the bot's messages with buttons (approval questions), as the fake holds them now */
  questions(): Promise<{ chatId: number; messageId: number; text: string; keyboard: { text: string; callback_data: string }[][] | null }[]>;
  stop(): Promise<void>;
}

export async function startFakeTelegram(token: string): Promise<FakeTelegramProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', './tools/openapi/register.cjs', 'apps/api/test/testing/fake-telegram.main.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, FAKE_TELEGRAM_PORT: String(port), FAKE_TELEGRAM_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!output.includes('fake Telegram Bot API on')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the fake Bot API did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const control = async (path: string, body: object) =>
    (
      await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json() as Promise<Record<string, unknown>>;
  return {
    url,
    token,
    send: async (chatId, text) => void (await control('/_fake/send', { chatId, text, languageCode: 'en' })),
    press: async (chatId, messageId, data) =>
      (await control('/_fake/press', { chatId, messageId, data }))['webhookStatus'] as number | null,
    questions: async () => {
      const state = (await (await fetch(`${url}/_fake/state`)).json()) as {
        messages: {
          chatId: number;
          messageId: number;
          fromBot: boolean;
          text: string;
          keyboard: { text: string; callback_data: string }[][] | null;
        }[];
      };
      return state.messages.filter((message) => message.fromBot && message.keyboard !== null);
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Binds `chatId` to the user as `/start` would (a Telegram authenticator and its chat), written
 * straight into the database: the black-box tests that need a bound user but are not about binding.
 */
export async function bindTelegramChat(databaseUrl: string, accountId: string, userId: string, chatId: number): Promise<void> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const [row] = (
      await sql.query(
        `INSERT INTO authenticators (account_id, user_id, kind, name, created_at) VALUES ($1, $2, 'Telegram', 'Telegram', now()) RETURNING id`,
        [accountId, userId],
      )
    ).rows;
    await sql.query(
      `INSERT INTO telegram_bindings (authenticator_id, account_id, chat_id, language_code, created_at) VALUES ($1, $2, $3, 'en', now())`,
      [row.id, accountId, chatId],
    );
  } finally {
    await sql.end();
  }
}
