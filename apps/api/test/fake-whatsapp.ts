import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The templates the README says to register at Meta (category Utility, language pt_BR): a local server knows only
 * approved templates, as WhatsApp does, and renders a message's text from its parameters.
 */
export const WHATSAPP_TEMPLATES: Record<string, string> = {
  sentinela_alarme_aberto: '🚨 Alarme no dispositivo {{1}}: {{2}} (limite {{3}}) desde {{4}}. Veja o histórico do dispositivo em {{5}} e reconheça o alarme no Sentinela.',
  sentinela_alarme_encerrado: '✅ Alarme encerrado no dispositivo {{1}}: {{2}} (limite {{3}}), de {{4}}. Histórico do dispositivo: {{5}} — Sentinela',
};

/** A template message the app sent, with the text WhatsApp would show. */
export interface WhatsAppMessage {
  id: string;
  phoneNumberId: string;
  to: string;
  template: string;
  language: string;
  parameters: string[];
  text: string;
}

interface Waiter {
  wake: () => void;
}

/**
 * A local WhatsApp Cloud API (Graph API) on 127.0.0.1 for tests: `POST /{version}/{phone number id}/messages` with a
 * Bearer token and a JSON template message (`messaging_product: whatsapp`, `to`, `type: template`, `template: { name,
 * language: { code }, components: [{ type: body, parameters: [{ type: text, text }] }] }`); answers
 * `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id }] }`, and errors as the Graph API does
 * (`{ error: { message, type, code, fbtrace_id } }`): 401/190 for a bad token, 400/100 for a bad field, 404/132001
 * for an unknown template, 400/132000 for a wrong number of parameters, 400/131008 for a missing one.
 */
export async function startFakeWhatsApp(options: { phoneNumberId?: string; accessToken?: string } = {}) {
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  let accessToken = options.accessToken ?? 'EAAtest-whatsapp-access-token';
  const messages: WhatsAppMessage[] = [];
  const waiters = new Set<Waiter>();
  const failures: number[] = [];
  let nextId = 1;
  let refused = 0;

  const wakeAll = () => {
    for (const waiter of [...waiters]) waiter.wake();
  };
  function reply(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
  function graphError(res: ServerResponse, status: number, code: number, message: string, type = 'OAuthException') {
    refused++;
    wakeAll();
    reply(res, status, { error: { message, type, code, fbtrace_id: `A${nextId}fake` } });
  }
  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/_control/messages' && req.method === 'GET') return reply(res, 200, messages);
      const match = /^\/v\d+\.\d+\/([^/]+)\/messages$/.exec(req.url ?? '');
      if (!match || req.method !== 'POST') return graphError(res, 400, 100, 'Unsupported request - method type or path not supported', 'GraphMethodException');
      const raw = await readBody(req);
      if (req.headers.authorization !== `Bearer ${accessToken}`) return graphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
      if (match[1] !== phoneNumberId) return graphError(res, 400, 100, `Unsupported post request. Object with ID '${match[1]}' does not exist`, 'GraphMethodException');
      if (!String(req.headers['content-type']).startsWith('application/json')) return graphError(res, 400, 100, 'Invalid parameter');
      const failing = failures.shift();
      if (failing !== undefined) return graphError(res, failing, 131000, 'Something went wrong');
      const body = JSON.parse(raw) as {
        messaging_product?: unknown;
        to?: unknown;
        type?: unknown;
        template?: { name?: unknown; language?: { code?: unknown }; components?: Array<{ type?: unknown; parameters?: Array<{ type?: unknown; text?: unknown }> }> };
      };
      if (body.messaging_product !== 'whatsapp') return graphError(res, 400, 100, '(#100) The parameter messaging_product is required.');
      if (typeof body.to !== 'string' || !/^\+?[1-9]\d{7,14}$/.test(body.to)) return graphError(res, 400, 100, '(#100) Invalid parameter: to');
      if (body.type !== 'template' || !body.template) return graphError(res, 400, 131047, 'Re-engagement message: more than 24 hours have passed since the recipient last replied.');
      const name = String(body.template.name);
      const template = WHATSAPP_TEMPLATES[name];
      if (!template || body.template.language?.code !== 'pt_BR') return graphError(res, 404, 132001, `(#132001) Template name does not exist in the translation: ${name}`);
      const bodyComponent = body.template.components?.find((c) => c.type === 'body');
      const parameters = (bodyComponent?.parameters ?? []).map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : null));
      const expected = (template.match(/\{\{\d+\}\}/g) ?? []).length;
      if (parameters.length !== expected) return graphError(res, 400, 132000, `(#132000) Number of parameters does not match the expected number of params (${parameters.length} for ${expected})`);
      if (parameters.some((p) => p === null || p === '')) return graphError(res, 400, 131008, '(#131008) Required parameter is missing');
      // WhatsApp refuses parameters with line breaks, tabs or more than four spaces in a row.
      if (parameters.some((p) => /[\n\t]| {5}/.test(p!))) return graphError(res, 400, 132018, '(#132018) There was an issue with the parameters in your template.');
      const texts = parameters as string[];
      const id = `wamid.FAKE${String(nextId++).padStart(12, '0')}`;
      const text = template.replace(/\{\{(\d+)\}\}/g, (_, n: string) => texts[Number(n) - 1]!);
      messages.push({ id, phoneNumberId, to: body.to, template: name, language: 'pt_BR', parameters: texts, text });
      wakeAll();
      return reply(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to.replace(/^\+/, '') }], messages: [{ id, message_status: 'accepted' }] });
    })().catch((err: unknown) => {
      if (!res.headersSent) reply(res, 400, { error: { message: `(#100) ${String(err)}`, type: 'OAuthException', code: 100 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  async function waitForMessage(match: (m: WhatsAppMessage) => boolean, timeoutMs = 20_000): Promise<WhatsAppMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching WhatsApp message within ${timeoutMs} ms (got: ${messages.map((m) => `${m.to}: ${m.text}`).join(' | ')})`);
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
    url: `http://127.0.0.1:${port}`,
    phoneNumberId,
    get accessToken() {
      return accessToken;
    },
    messages,
    get refused() {
      return refused;
    },
    failNext(status: number, times: number) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    setAccessToken(token: string) {
      accessToken = token;
    },
    waitForMessage,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeWhatsApp = Awaited<ReturnType<typeof startFakeWhatsApp>>;
