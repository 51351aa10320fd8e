import { inject } from 'vitest';

/**
 * One running product for end-to-end tests: the server on its own database with the demo data, and its own local
 * fakes of the outside services. The global setup starts one per Vitest worker (ADR 50), so two files running at
 * once never share demo devices, users, mailboxes or sent messages.
 */
export interface E2eEnvironment {
  baseURL: string;
  databaseUrl: string;
  mqttUrl: string;
  /** Local fakes of the map services, which the API hands the web app through /config.json. */
  tileURL: string;
  routingURL: string;
  /** The local SMTP server's mailbox (GET /messages): what the product e-mailed. */
  mailboxURL: string;
  /** The local Telegram Bot API server's control (POST /_control/send-text, GET /_control/calls). */
  telegramURL: string;
  /** The local SMS provider's and WhatsApp Cloud API's control (GET /_control/messages): what they received. */
  smsURL: string;
  whatsappURL: string;
  /** The platform's PIX key and the PSP webhook's Bearer token the server runs with (financial.e2e.ts pays as the PSP). */
  pixKey: string;
  pixWebhookToken: string;
  /** The local Pagar.me API v5 root the e2e server tokenises cards with (ADR 31). */
  pagarmeURL: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One environment per worker, in the order of Vitest's pool ids (1, 2, …). */
    e2eEnvironments: E2eEnvironment[];
  }
}

/**
 * A value of this test file's environment. Vitest numbers its workers 1…maxWorkers and no two files running at the
 * same time share a number, so the pool id picks the environment.
 */
export function e2e<K extends keyof E2eEnvironment>(key: K): E2eEnvironment[K] {
  const environments = inject('e2eEnvironments');
  const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
  const environment = environments[(poolId - 1) % environments.length];
  if (!environment) throw new Error('the e2e global setup started no environment');
  return environment[key];
}
