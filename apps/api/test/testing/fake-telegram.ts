import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressInfo } from 'node:net';

/**
 * A Telegram Bot API server on loopback, for tests and for trying the bot without Telegram: the
 * methods Twofold calls (getMe, sendMessage, editMessageText, answerCallbackQuery, getUpdates,
 * setWebhook, deleteWebhook, getWebhookInfo) with the real JSON shapes (`{ok: true, result}`, or
 * `{ok: false, error_code, description, parameters: {retry_after}}`), failures on demand (429, 5xx,
 * slow, garbage, a dropped connection), and the user's side: a test or a person sends messages
 * (`/start <payload>`) and presses buttons as a given chat. Updates go to the registered webhook
 * (with its secret header), else wait for `getUpdates`.
 *
 * People use it through a small HTML page at `/` or its JSON control routes under `/_fake/`
 * (`fake-telegram.main.ts` starts it). Plain node:http, no dependency: it is the protocol's other end.
 */

export interface FakeChat {
  id: number;
  firstName?: string;
  username?: string;
  /** Telegram's language_code of the chat's user (`ru`, `en`, …) */
  languageCode?: string;
}

export interface InlineButton {
  text: string;
  callback_data: string;
}

export interface FakeMessage {
  chatId: number;
  messageId: number;
  /** sent by the bot (true) or by the chat's user */
  fromBot: boolean;
  text: string;
  keyboard: InlineButton[][] | null;
  /** how many times the bot changed it */
  edits: number;
}

export type FakeFailure =
  /** an `ok: false` answer with this HTTP status and error code (429 with `retry_after`) */
  | { kind: 'error'; status: number; description?: string; retryAfter?: number }
  /** the answer comes this much later */
  | { kind: 'slow'; ms: number }
  /** 200 with a body that is not the Bot API's JSON */
  | { kind: 'garbage'; body?: string; status?: number }
  /** the connection is cut without an answer */
  | { kind: 'drop' };

export interface FakeCall {
  method: string;
  params: Record<string, unknown>;
}

interface PendingUpdate {
  update_id: number;
  [key: string]: unknown;
}

interface Waiting {
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

const BOT_ID = 777000111;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function okAnswer(res: ServerResponse, result: unknown): void {
  json(res, 200, { ok: true, result });
}

function errorAnswer(res: ServerResponse, code: number, description: string, parameters?: Record<string, unknown>): void {
  json(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The Bot API takes parameters in the query string, JSON or a urlencoded form; values of a form are JSON where they parse. */
function parseParams(url: URL, contentType: string | undefined, body: string): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const fromForm = (form: URLSearchParams) => {
    for (const [key, value] of form) {
      try {
        params[key] = JSON.parse(value);
      } catch {
        params[key] = value;
      }
    }
  };
  fromForm(url.searchParams);
  if (body) {
    if (contentType?.includes('application/json')) Object.assign(params, JSON.parse(body));
    else if (contentType?.includes('application/x-www-form-urlencoded')) fromForm(new URLSearchParams(body));
  }
  return params;
}

export class FakeTelegram {
  readonly calls: FakeCall[] = [];
  readonly messages: FakeMessage[] = [];
  /** answerCallbackQuery's answers, by the query they answered */
  readonly callbackAnswers: { queryId: string; text: string | undefined }[] = [];
  webhook: { url: string; secretToken: string | undefined } | null = null;
  /** chats whose user blocked the bot: sendMessage answers 403 */
  readonly blocked = new Set<number>();
  /** getUpdates answered 409 because a second poller came (Telegram's "terminated by other getUpdates request") */
  pollConflicts = 0;

  private readonly chats = new Map<number, FakeChat>();
  private readonly failures = new Map<string, FakeFailure[]>();
  private readonly pending: PendingUpdate[] = [];
  private readonly queries = new Set<string>();
  private waiting: Waiting | null = null;
  private nextUpdateId = 100_000;
  private nextMessageId = 1;
  private nextQueryId = 1;
  private readonly server: Server;
  private readonly confirmWaiters: { updateId: number; resolve: () => void }[] = [];
  private readonly questionWaiters: { chatId: number; after: number; resolve: (message: FakeMessage) => void }[] = [];

  private constructor(
    readonly token: string,
    readonly botUsername: string,
  ) {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((error) => {
        if (!res.headersSent) errorAnswer(res, 500, `Internal Server Error: ${(error as Error).message}`);
      });
    });
  }

  static async start(options: { token: string; botUsername?: string; port?: number; host?: string }): Promise<FakeTelegram> {
    const fake = new FakeTelegram(options.token, options.botUsername ?? 'TwofoldTestBot');
    await new Promise<void>((resolve, reject) => {
      fake.server.once('error', reject);
      fake.server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    return fake;
  }

  /** TELEGRAM_API_URL for the service */
  get url(): string {
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    if (this.waiting) {
      clearTimeout(this.waiting.timer);
      okAnswer(this.waiting.res, []);
      this.waiting = null;
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next `times` calls of `method` fail so. */
  failNext(method: string, failure: FakeFailure, times = 1): void {
    const queue = this.failures.get(method) ?? [];
    for (let i = 0; i < times; i++) queue.push(failure);
    this.failures.set(method, queue);
  }

  clearFailures(): void {
    this.failures.clear();
  }

  callsOf(method: string): FakeCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  messagesIn(chatId: number): FakeMessage[] {
    return this.messages.filter((message) => message.chatId === chatId);
  }

  /** The bot's last message in the chat. */
  lastBotMessage(chatId: number): FakeMessage | undefined {
    return this.messagesIn(chatId)
      .filter((message) => message.fromBot)
      .at(-1);
  }

  addChat(chat: FakeChat): void {
    this.chats.set(chat.id, { ...this.chats.get(chat.id), ...chat });
  }

  /** The chat's user writes `text` to the bot (e.g. `/start <payload>`). Returns the webhook's status, or null when queued for getUpdates. */
  async sendText(chat: FakeChat, text: string): Promise<number | null> {
    this.addChat(chat);
    const message = { chatId: chat.id, messageId: this.nextMessageId++, fromBot: false, text, keyboard: null, edits: 0 };
    this.messages.push(message);
    return this.deliver({
      update_id: this.nextUpdateId++,
      message: {
        message_id: message.messageId,
        from: this.userOf(chat),
        chat: this.chatObject(chat),
        date: Math.floor(Date.now() / 1000),
        text,
        ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0].length }] } : {}),
      },
    });
  }

  /**
   * The chat's user presses a button whose data is `data` under the bot's message `messageId` (a
   * test may press data of its own making). Returns the webhook's status (null: queued) and the query's id.
   */
  async press(chat: FakeChat, messageId: number, data: string): Promise<{ status: number | null; queryId: string }> {
    this.addChat(chat);
    const message = this.messages.find((m) => m.messageId === messageId);
    const queryId = String(this.nextQueryId++);
    this.queries.add(queryId);
    const status = await this.deliver({
      update_id: this.nextUpdateId++,
      callback_query: {
        id: queryId,
        from: this.userOf(chat),
        chat_instance: `instance-${chat.id}`,
        data,
        ...(message
          ? {
              message: {
                message_id: message.messageId,
                from: this.botUser(),
                // the chat the press comes from, as Telegram reports it
                chat: this.chatObject(chat),
                date: Math.floor(Date.now() / 1000),
                text: message.text,
              },
            }
          : {}),
      },
    });
    return { status, queryId };
  }

  /**
   * The next message with buttons the bot sends to the chat (an approval's question): resolves when it
   * arrives, or at once with one already sent after `after` (a message id; default: any not yet pressed).
   */
  question(chatId: number, after = 0): Promise<FakeMessage> {
    const sent = this.messagesIn(chatId).find((m) => m.fromBot && m.keyboard !== null && m.messageId > after);
    if (sent) return Promise.resolve(sent);
    return new Promise((resolve) => this.questionWaiters.push({ chatId, after, resolve }));
  }

  /** Presses the button labelled `label` on the bot's message. */
  pressButton(chat: FakeChat, message: FakeMessage, label: string): Promise<{ status: number | null; queryId: string }> {
    const button = message.keyboard?.flat().find((b) => b.text === label);
    if (!button) throw new Error(`no button "${label}" on message ${message.messageId}: ${JSON.stringify(message.keyboard)}`);
    return this.press(chat, message.messageId, button.callback_data);
  }

  /** Resolves once a getUpdates has confirmed `updateId` (asked with an offset past it): the poller handled it. */
  confirmed(updateId: number): Promise<void> {
    return new Promise((resolve) => this.confirmWaiters.push({ updateId, resolve }));
  }

  /** The id the next update will get. */
  get upcomingUpdateId(): number {
    return this.nextUpdateId;
  }

  private userOf(chat: FakeChat) {
    return {
      id: chat.id,
      is_bot: false,
      first_name: chat.firstName ?? `User ${chat.id}`,
      ...(chat.username ? { username: chat.username } : {}),
      ...(chat.languageCode ? { language_code: chat.languageCode } : {}),
    };
  }

  private chatObject(chat: FakeChat) {
    return {
      id: chat.id,
      type: 'private',
      first_name: chat.firstName ?? `User ${chat.id}`,
      ...(chat.username ? { username: chat.username } : {}),
    };
  }

  private botUser() {
    return { id: BOT_ID, is_bot: true, first_name: 'Twofold', username: this.botUsername };
  }

  private messageObject(message: FakeMessage) {
    return {
      message_id: message.messageId,
      from: this.botUser(),
      chat: this.chatObject(this.chats.get(message.chatId) ?? { id: message.chatId }),
      date: Math.floor(Date.now() / 1000),
      ...(message.edits > 0 ? { edit_date: Math.floor(Date.now() / 1000) } : {}),
      text: message.text,
      ...(message.keyboard && message.keyboard.length > 0 ? { reply_markup: { inline_keyboard: message.keyboard } } : {}),
    };
  }

  /** To the webhook (its status), or queued for getUpdates (null). */
  private async deliver(update: PendingUpdate): Promise<number | null> {
    if (this.webhook) return this.post(this.webhook.url, this.webhook.secretToken, update);
    this.pending.push(update);
    this.wakePoller();
    return null;
  }

  private post(url: string, secretToken: string | undefined, update: PendingUpdate): Promise<number> {
    const body = JSON.stringify(update);
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(secretToken ? { 'x-telegram-bot-api-secret-token': secretToken } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  private wakePoller(): void {
    const waiting = this.waiting;
    if (!waiting || this.pending.length === 0) return;
    this.waiting = null;
    clearTimeout(waiting.timer);
    okAnswer(waiting.res, this.pending);
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.telegram');
    const body = await readBody(req);
    if (url.pathname === '/' && req.method === 'GET') return this.page(res);
    if (url.pathname.startsWith('/_fake/')) return this.control(req, res, url, body);
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return errorAnswer(res, 404, 'Not Found');
    const [, token, method] = match;
    let params: Record<string, unknown>;
    try {
      params = parseParams(url, req.headers['content-type'], body);
    } catch {
      return errorAnswer(res, 400, "Bad Request: can't parse JSON object");
    }
    this.calls.push({ method, params });
    if (token !== this.token) return errorAnswer(res, 401, 'Unauthorized');
    const failure = this.failures.get(method)?.shift();
    if (failure) {
      if (failure.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (failure.kind === 'garbage') {
        res.writeHead(failure.status ?? 200, { 'content-type': 'text/html' });
        res.end(failure.body ?? '<html><body>502 Bad Gateway</body></html>');
        return;
      }
      if (failure.kind === 'error') {
        return errorAnswer(
          res,
          failure.status,
          failure.description ??
            (failure.status === 429 ? `Too Many Requests: retry after ${failure.retryAfter ?? 1}` : 'Internal Server Error'),
          failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : undefined,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, failure.ms));
      if (req.socket.destroyed) return;
    }
    return this.method(method, params, res);
  }

  private method(method: string, p: Record<string, unknown>, res: ServerResponse): void {
    switch (method) {
      case 'getMe':
        return okAnswer(res, {
          ...this.botUser(),
          can_join_groups: false,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        });
      case 'sendMessage':
        return this.sendMessage(p, res);
      case 'editMessageText':
        return this.editMessageText(p, res);
      case 'answerCallbackQuery': {
        const id = String(p['callback_query_id'] ?? '');
        if (!this.queries.delete(id))
          return errorAnswer(res, 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
        this.callbackAnswers.push({ queryId: id, text: typeof p['text'] === 'string' ? p['text'] : undefined });
        return okAnswer(res, true);
      }
      case 'getUpdates':
        return this.getUpdates(p, res);
      case 'setWebhook': {
        const url = typeof p['url'] === 'string' ? p['url'] : '';
        if (url === '') {
          this.webhook = null;
          return okAnswer(res, true);
        }
        if (!/^https?:\/\//.test(url)) return errorAnswer(res, 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        this.webhook = { url, secretToken: typeof p['secret_token'] === 'string' ? p['secret_token'] : undefined };
        return okAnswer(res, true);
      }
      case 'deleteWebhook':
        this.webhook = null;
        if (p['drop_pending_updates'] === true) this.pending.length = 0;
        return okAnswer(res, true);
      case 'getWebhookInfo':
        return okAnswer(res, {
          url: this.webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: this.pending.length,
          allowed_updates: ['message', 'callback_query'],
        });
      default:
        return errorAnswer(res, 404, 'Not Found');
    }
  }

  private keyboardOf(p: Record<string, unknown>): InlineButton[][] | null | 'invalid' {
    const markup = p['reply_markup'] as { inline_keyboard?: unknown } | undefined;
    if (!markup) return null;
    const rows = markup.inline_keyboard;
    if (!Array.isArray(rows)) return 'invalid';
    for (const row of rows) {
      if (!Array.isArray(row)) return 'invalid';
      for (const button of row as InlineButton[]) {
        if (typeof button?.text !== 'string' || typeof button.callback_data !== 'string') return 'invalid';
        const bytes = Buffer.byteLength(button.callback_data);
        if (bytes < 1 || bytes > 64) return 'invalid';
      }
    }
    return rows as InlineButton[][];
  }

  private sendMessage(p: Record<string, unknown>, res: ServerResponse): void {
    const chatId = Number(p['chat_id']);
    const text = typeof p['text'] === 'string' ? p['text'] : '';
    if (!this.chats.has(chatId)) return errorAnswer(res, 400, 'Bad Request: chat not found');
    if (this.blocked.has(chatId)) return errorAnswer(res, 403, 'Forbidden: bot was blocked by the user');
    if (text.trim() === '') return errorAnswer(res, 400, 'Bad Request: message text is empty');
    if (text.length > 4096) return errorAnswer(res, 400, 'Bad Request: message is too long');
    const keyboard = this.keyboardOf(p);
    if (keyboard === 'invalid') return errorAnswer(res, 400, 'Bad Request: BUTTON_DATA_INVALID');
    const message: FakeMessage = { chatId, messageId: this.nextMessageId++, fromBot: true, text, keyboard, edits: 0 };
    this.messages.push(message);
    okAnswer(res, this.messageObject(message));
    if (keyboard) {
      for (const waiter of this.questionWaiters.filter((w) => w.chatId === chatId && message.messageId > w.after)) {
        this.questionWaiters.splice(this.questionWaiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }

  private editMessageText(p: Record<string, unknown>, res: ServerResponse): void {
    const chatId = Number(p['chat_id']);
    const message = this.messages.find((m) => m.fromBot && m.chatId === chatId && m.messageId === Number(p['message_id']));
    if (!message) return errorAnswer(res, 400, 'Bad Request: message to edit not found');
    const text = typeof p['text'] === 'string' ? p['text'] : '';
    const keyboard = this.keyboardOf(p);
    if (keyboard === 'invalid') return errorAnswer(res, 400, 'Bad Request: BUTTON_DATA_INVALID');
    const markup = keyboard && keyboard.length > 0 ? keyboard : null;
    if (text === message.text && JSON.stringify(markup) === JSON.stringify(message.keyboard)) {
      return errorAnswer(
        res,
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    message.text = text;
    message.keyboard = markup;
    message.edits += 1;
    return okAnswer(res, this.messageObject(message));
  }

  private getUpdates(p: Record<string, unknown>, res: ServerResponse): void {
    if (this.webhook)
      return errorAnswer(
        res,
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    const offset = Number(p['offset'] ?? 0);
    if (offset > 0) {
      while (this.pending.length > 0 && this.pending[0].update_id < offset) this.pending.shift();
      for (const waiter of [...this.confirmWaiters]) {
        if (waiter.updateId < offset) {
          this.confirmWaiters.splice(this.confirmWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
    // a second poller ends the first, as Telegram does: the first gets 409
    if (this.waiting) {
      const earlier = this.waiting;
      this.waiting = null;
      clearTimeout(earlier.timer);
      this.pollConflicts += 1;
      errorAnswer(earlier.res, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    }
    if (this.pending.length > 0) return okAnswer(res, this.pending);
    const timeoutSeconds = Math.min(Math.max(Number(p['timeout'] ?? 0), 0), 50);
    if (timeoutSeconds === 0) return okAnswer(res, []);
    const timer = setTimeout(() => {
      if (this.waiting?.res === res) this.waiting = null;
      okAnswer(res, []);
    }, timeoutSeconds * 1000);
    this.waiting = { res, timer };
    res.on('close', () => {
      if (this.waiting?.res === res) {
        clearTimeout(timer);
        this.waiting = null;
      }
    });
  }

  /** JSON routes for a person (or a script) playing the user, and the page's forms. */
  private async control(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const fromForm = req.headers['content-type']?.includes('application/x-www-form-urlencoded');
    const params = fromForm ? Object.fromEntries(new URLSearchParams(body)) : body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const back = () => {
      res.writeHead(303, { location: '/' });
      res.end();
    };
    const chatOf = (): FakeChat => ({
      id: Number(params['chatId']),
      ...(params['languageCode'] ? { languageCode: String(params['languageCode']) } : {}),
      ...(params['username'] ? { username: String(params['username']) } : {}),
    });
    if (req.method === 'GET' && url.pathname === '/_fake/state') {
      return json(res, 200, {
        webhook: this.webhook,
        pendingUpdates: this.pending.length,
        chats: [...this.chats.values()],
        messages: this.messages,
      });
    }
    if (req.method === 'POST' && url.pathname === '/_fake/send') {
      const status = await this.sendText(chatOf(), String(params['text'] ?? ''));
      return fromForm ? back() : json(res, 200, { webhookStatus: status });
    }
    if (req.method === 'POST' && url.pathname === '/_fake/press') {
      const pressed = await this.press(chatOf(), Number(params['messageId']), String(params['data'] ?? ''));
      return fromForm ? back() : json(res, 200, { webhookStatus: pressed.status, queryId: pressed.queryId });
    }
    if (req.method === 'POST' && url.pathname === '/_fake/fail') {
      const method = String(params['method'] ?? '');
      const times = Number(params['times'] ?? 1);
      const kind = String(params['kind'] ?? 'error');
      const failure: FakeFailure =
        kind === 'slow'
          ? { kind: 'slow', ms: Number(params['ms'] ?? 10_000) }
          : kind === 'garbage'
            ? { kind: 'garbage' }
            : kind === 'drop'
              ? { kind: 'drop' }
              : {
                  kind: 'error',
                  status: Number(params['status'] ?? 500),
                  ...(params['retryAfter'] !== undefined ? { retryAfter: Number(params['retryAfter']) } : {}),
                };
      this.failNext(method, failure, times);
      return fromForm ? back() : json(res, 200, { queued: times });
    }
    return errorAnswer(res, 404, 'Not Found');
  }

  private page(res: ServerResponse): void {
    const chats = [...this.chats.values()];
    const chatSection = (chat: FakeChat) => {
      const messages = this.messagesIn(chat.id)
        .map((message) => {
          const buttons = (message.keyboard ?? [])
            .flat()
            .map(
              (button) =>
                `<form method="post" action="/_fake/press" style="display:inline"><input type="hidden" name="chatId" value="${chat.id}">` +
                `<input type="hidden" name="messageId" value="${message.messageId}"><input type="hidden" name="data" value="${escapeHtml(button.callback_data)}">` +
                `<button>${escapeHtml(button.text)}</button></form>`,
            )
            .join(' ');
          return `<li class="${message.fromBot ? 'bot' : 'user'}"><pre>${escapeHtml(message.text)}</pre>${buttons}${message.edits ? ' <small>(edited)</small>' : ''}</li>`;
        })
        .join('');
      return `<section><h2>Chat ${chat.id}${chat.username ? ` @${escapeHtml(chat.username)}` : ''}${chat.languageCode ? ` (${escapeHtml(chat.languageCode)})` : ''}</h2><ul>${messages}</ul></section>`;
    };
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Fake Telegram</title>
<style>body{font-family:sans-serif;max-width:50rem;margin:1rem auto}li{list-style:none;margin:.5rem 0;padding:.5rem;border-radius:.5rem}
.bot{background:#eef}.user{background:#efe;text-align:right}pre{white-space:pre-wrap;margin:0 0 .3rem}</style></head><body>
<h1>Fake Telegram (bot @${escapeHtml(this.botUsername)})</h1>
<p>Updates go to ${this.webhook ? `the webhook ${escapeHtml(this.webhook.url)}` : `getUpdates (${this.pending.length} waiting)`}. Reload to see new messages.</p>
<form method="post" action="/_fake/send">Send as chat <input name="chatId" value="${chats[0]?.id ?? 4242}" size="10">
language <input name="languageCode" value="${escapeHtml(chats[0]?.languageCode ?? 'en')}" size="3">
<input name="text" placeholder="/start PAYLOAD" size="50"> <button>Send</button></form>
${chats.map(chatSection).join('')}</body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  }
}
