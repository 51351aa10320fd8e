import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A call the app made to the Bot API: its method and JSON parameters. */
export interface BotApiCall {
  method: string;
  params: Record<string, unknown>;
}

interface Waiter {
  wake: () => void;
}

/**
 * A local Telegram Bot API server on 127.0.0.1 for tests, speaking the real HTTP API (`/bot<token>/<method>`, JSON
 * in, `{ ok, result }` out): getMe, getUpdates (long polling, woken by injected updates), setWebhook/deleteWebhook,
 * sendMessage, editMessageText, answerCallbackQuery. Tests inject updates as Telegram would (a /start message, a
 * button press) and read back every call the app made.
 */
export async function startFakeTelegram(options: { token?: string; botUsername?: string } = {}) {
  const token = options.token ?? '123456:TEST-token_for-sentinela';
  const botUsername = options.botUsername ?? 'sentinela_teste_bot';
  const calls: BotApiCall[] = [];
  const updates: Array<Record<string, unknown>> = [];
  const waiters = new Set<Waiter>();
  let nextUpdateId = 1;
  let nextMessageId = 1000;
  let webhook: { url: string; secret_token?: string } | null = null;
  /** The messages the bot sent (as last edited), by id: a button press carries its message, as Telegram's does. */
  const sent = new Map<number, Record<string, unknown>>();
  const bot = { id: 424242, is_bot: true, first_name: 'Sentinela', username: botUsername };
  /** Fail the next calls of a method with an HTTP 500 (a Bot API that is down for a while). */
  const failures = new Map<string, number>();
  /** Chats whose sendMessage calls hang until released (a slow Bot API for some recipients); their waiting calls. */
  const heldChats = new Map<number, Array<() => void>>();

  const wakeAll = () => {
    for (const waiter of [...waiters]) waiter.wake();
  };

  function reply(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async function readParams(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return {};
    const type = req.headers['content-type'] ?? '';
    if (type.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
    if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
    throw new Error(`unexpected content type ${type}`);
  }

  const server = createServer((req, res) => {
    void (async () => {
      // For tests in another process (the e2e specs): inject a text message, read the calls made so far.
      if (req.url === '/_control/calls' && req.method === 'GET') return reply(res, 200, calls);
      if (req.url === '/_control/send-text' && req.method === 'POST') {
        const { chatId, text } = (await readParams(req)) as { chatId: number; text: string };
        return reply(res, 200, sendText(chatId, text));
      }
      if (req.url === '/_control/press' && req.method === 'POST') {
        const { chatId, messageId, data } = (await readParams(req)) as { chatId: number; messageId: number; data: string };
        return reply(res, 200, { id: pressButton(chatId, messageId, data) });
      }
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      if (match[1] !== token) return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const method = match[2]!;
      const params = await readParams(req);
      if (method !== 'getUpdates') calls.push({ method, params });
      const held = method === 'sendMessage' ? heldChats.get(Number(params.chat_id)) : undefined;
      if (held) await new Promise<void>((resolve) => held.push(resolve));
      const failing = failures.get(method) ?? 0;
      if (failing > 0) {
        failures.set(method, failing - 1);
        return reply(res, 500, { ok: false, error_code: 500, description: 'Internal Server Error' });
      }
      switch (method) {
        case 'getMe':
          return reply(res, 200, { ok: true, result: { ...bot, can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false } });
        case 'deleteWebhook':
          webhook = null;
          return reply(res, 200, { ok: true, result: true });
        case 'setWebhook':
          webhook = { url: String(params.url), ...(params.secret_token ? { secret_token: String(params.secret_token) } : {}) };
          return reply(res, 200, { ok: true, result: true });
        case 'getUpdates': {
          const offset = Number(params.offset ?? 0);
          const timeoutMs = Math.min(Number(params.timeout ?? 0), 30) * 1000;
          const pending = () => updates.filter((u) => (u.update_id as number) >= offset);
          // Confirmed updates are gone for good, as on Telegram.
          for (let i = updates.length - 1; i >= 0; i--) if ((updates[i]!.update_id as number) < offset) updates.splice(i, 1);
          if (pending().length === 0 && timeoutMs > 0) {
            await new Promise<void>((resolve) => {
              const waiter: Waiter = {
                wake: () => {
                  clearTimeout(timer);
                  waiters.delete(waiter);
                  resolve();
                },
              };
              const timer = setTimeout(waiter.wake, timeoutMs);
              waiters.add(waiter);
              req.on('close', waiter.wake);
            });
          }
          if (res.destroyed) return;
          return reply(res, 200, { ok: true, result: pending() });
        }
        case 'sendMessage': {
          const message = { message_id: nextMessageId++, from: bot, date: Math.floor(Date.now() / 1000), chat: { id: Number(params.chat_id), type: 'private' }, text: params.text };
          sent.set(message.message_id, { ...message, ...(params.reply_markup ? { reply_markup: params.reply_markup } : {}) });
          wakeAll();
          return reply(res, 200, { ok: true, result: message });
        }
        case 'editMessageText': {
          const edited = sent.get(Number(params.message_id));
          // An edit without reply_markup removes the message's buttons.
          if (edited) sent.set(Number(params.message_id), { ...edited, text: params.text, edit_date: Math.floor(Date.now() / 1000), reply_markup: params.reply_markup });
          wakeAll();
          return reply(res, 200, { ok: true, result: { message_id: Number(params.message_id), date: Math.floor(Date.now() / 1000), chat: { id: Number(params.chat_id), type: 'private' }, text: params.text } });
        }
        case 'answerCallbackQuery':
          wakeAll();
          return reply(res, 200, { ok: true, result: true });
        default:
          return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) reply(res, 400, { ok: false, error_code: 400, description: `Bad Request: ${String(err)}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function push(update: Record<string, unknown>): number {
    const id = nextUpdateId++;
    updates.push({ update_id: id, ...update });
    wakeAll();
    return id;
  }

  const user = (chatId: number, firstName: string) => ({ id: chatId, is_bot: false, first_name: firstName, language_code: 'pt-br' });

  /**
   * A press on an inline button of a message the bot sent to this chat; returns the callback query's id. As on
   * Telegram, the query carries the message the button belongs to as the chat shows it (its text, its buttons);
   * a message id this server never sent (a forged press) carries a bare message.
   */
  function pressButton(chatId: number, messageId: number, data: string, fromId = chatId): string {
    const id = `cb${nextUpdateId}${Date.now()}`;
    const known = sent.get(messageId);
    const message = known && Number((known.chat as { id: number }).id) === chatId ? known : { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' }, text: '…' };
    push({
      callback_query: {
        id,
        from: user(fromId, 'Pessoa'),
        chat_instance: `ci${chatId}`,
        data,
        message,
      },
    });
    return id;
  }

  /** A private-chat text message from a person, as Telegram delivers it. */
  function sendText(chatId: number, text: string, firstName = 'Pessoa'): Record<string, unknown> {
    const message = {
      message_id: nextMessageId++,
      from: user(chatId, firstName),
      chat: { id: chatId, type: 'private', first_name: firstName },
      date: Math.floor(Date.now() / 1000),
      text,
      ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] } : {}),
    };
    const update = { message };
    push(update);
    return update;
  }

  /** The first call (now or later) that matches, or an error after the timeout. */
  async function waitForCall(match: (call: BotApiCall) => boolean, timeoutMs = 20_000): Promise<BotApiCall> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = calls.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching Bot API call within ${timeoutMs} ms (calls: ${calls.map((c) => c.method).join(', ')})`);
      await new Promise<void>((resolve) => {
        const waiter: Waiter = {
          wake: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(waiter.wake, left);
        waiters.add(waiter);
      });
    }
  }

  return {
    token,
    botUsername,
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    get webhook() {
      return webhook;
    },
    failNext(method: string, times: number) {
      failures.set(method, times);
    },
    /** From now on, messages to this chat hang (received, unanswered) until `release`. */
    hold(chatId: number) {
      if (!heldChats.has(chatId)) heldChats.set(chatId, []);
    },
    /** Answers the held messages to this chat and stops holding it. */
    release(chatId: number) {
      const waiting = heldChats.get(chatId) ?? [];
      heldChats.delete(chatId);
      for (const resolve of waiting) resolve();
    },
    sendText,
    pressButton,
    /** An update built by the caller (for the webhook, which the test posts itself). */
    update(update: Record<string, unknown>): Record<string, unknown> {
      return { update_id: nextUpdateId++, ...update };
    },
    waitForCall,
    /** Whether updates injected so far were all fetched and confirmed by the bot. */
    get pendingUpdates() {
      return updates.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        wakeAll();
        for (const chatId of [...heldChats.keys()]) heldChats.get(chatId)!.splice(0).forEach((release) => release());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
