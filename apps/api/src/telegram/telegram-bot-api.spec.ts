import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { FakeTelegram } from '../../test/testing/fake-telegram';
import { TelegramBotApi } from './telegram-bot-api';

const TOKEN = `7000000002:${randomBytes(24).toString('base64url')}`;

/** The retry rules of a Bot API call, counted in calls and waits (the sleep is the test's), never in time. */
describe('TelegramBotApi (grammY) against a Bot API that fails', () => {
  let fake: FakeTelegram;
  let slept: number[];
  const CHAT = 4242;

  beforeAll(async () => {
    fake = await FakeTelegram.start({ token: TOKEN });
    fake.addChat({ id: CHAT });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.clearFailures();
    slept = [];
  });

  const client = (over: { token?: string; apiUrl?: string; attemptTimeoutMs?: number } = {}) =>
    new TelegramBotApi({
      token: over.token ?? TOKEN,
      apiUrl: over.apiUrl ?? fake.url,
      attemptTimeoutMs: over.attemptTimeoutMs ?? 2_000,
      sleep: async (ms) => void slept.push(ms),
    });
  const sends = () => fake.callsOf('sendMessage').length;
  async function send(api = client(), budgetMs = 10_000) {
    const before = sends();
    const result = await api.sendMessage(String(CHAT), 'hello', null, budgetMs);
    return { result, calls: sends() - before };
  }

  it('sends, reading the message id from the real shape', async () => {
    const { result, calls } = await send();
    expect(result).toMatchObject({ ok: true, result: { message_id: expect.any(Number), chat: { id: CHAT } } });
    expect(calls).toBe(1);
  });

  it('429: waits retry_after when it fits in the bound, then succeeds', async () => {
    fake.failNext('sendMessage', { kind: 'error', status: 429, retryAfter: 3 });
    const { result, calls } = await send();
    expect(result.ok).toBe(true);
    expect(calls).toBe(2);
    expect(slept).toEqual([3000]);
  });

  it('429 beyond the bound: throttled at once, no wait', async () => {
    fake.failNext('sendMessage', { kind: 'error', status: 429, retryAfter: 30 });
    const { result, calls } = await send();
    expect(result).toMatchObject({ ok: false, failure: 'throttled', errorCode: 429, retryAfterSeconds: 30 });
    expect(calls).toBe(1);
    expect(slept).toEqual([]);
  });

  it('5xx: retried with a doubling back-off, at most four calls', async () => {
    fake.failNext('sendMessage', { kind: 'error', status: 503 }, 10);
    const { result, calls } = await send();
    expect(result).toMatchObject({ ok: false, failure: 'unreachable', errorCode: 503 });
    expect(calls).toBe(4);
    expect(slept).toEqual([250, 500, 1000]);
  });

  it('garbage (not the Bot API JSON) and a cut connection are unreachable, retried the same bounded way', async () => {
    fake.failNext('sendMessage', { kind: 'garbage' }, 2);
    expect(await send()).toMatchObject({ result: { ok: true }, calls: 3 });
    fake.failNext('sendMessage', { kind: 'garbage', body: '{"ok":false}', status: 200 }, 10);
    expect(await send()).toMatchObject({ result: { ok: false, failure: 'unreachable' }, calls: 4 });
    fake.clearFailures();
    fake.failNext('sendMessage', { kind: 'drop' }, 10);
    expect(await send()).toMatchObject({ result: { ok: false, failure: 'unreachable' }, calls: 4 });
  });

  it('a server that accepts and never answers: each call ends at its attempt bound, as a timeout', async () => {
    fake.failNext('sendMessage', { kind: 'slow', ms: 5_000 }, 10);
    const { result, calls } = await send(client({ attemptTimeoutMs: 100 }));
    expect(result).toMatchObject({ ok: false, failure: 'timeout' });
    expect(calls).toBe(4);
  });

  it('a Bot API that is down: unreachable after four tries', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await client({ apiUrl: `http://127.0.0.1:${port}` }).sendMessage(String(CHAT), 'hello', null, 10_000);
    expect(result).toEqual({ ok: false, failure: 'unreachable' });
    expect(slept).toEqual([250, 500, 1000]);
  });

  it('a refusal (4xx) is final: one call; the token appears in no result', async () => {
    const unknownChat = await client().sendMessage('1', 'hello', null, 10_000);
    expect(unknownChat).toEqual({ ok: false, failure: 'refused', errorCode: 400, description: 'Bad Request: chat not found' });
    const wrongToken = await client({ token: `7000000002:${randomBytes(24).toString('base64url')}` }).getMe(10_000);
    expect(wrongToken).toMatchObject({ ok: false, failure: 'refused', errorCode: 401 });
    expect(slept).toEqual([]);
    for (const result of [unknownChat, wrongToken]) expect(JSON.stringify(result)).not.toContain(TOKEN.split(':')[1]);
  });

  it('the bound is never outlived: a retry that would end past it is not made', async () => {
    fake.failNext('sendMessage', { kind: 'error', status: 500 }, 10);
    const { result, calls } = await send(client(), 200);
    expect(result.ok).toBe(false);
    expect(calls).toBe(1);
    expect(slept).toEqual([]);
  });
});
