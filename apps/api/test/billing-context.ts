import type { AppConfig } from '../src/config/config';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/** The demo logins the billing and subscription tests act as, by a short name. */
const DEMO_LOGINS = { admin: 'admin', aurora: 'aurora.adm', joao: 'joao.silva', vida: 'vida.adm', maria: 'maria.souza' } as const;
export type DemoLogin = keyof typeof DEMO_LOGINS;

export interface BillingTest {
  ctx: TestContext;
  smtp: TestSmtpServer;
  /** Session tokens of the logins asked for, renewed by loginAll and moveClock. */
  tokens: Record<DemoLogin, string>;
  /** The two demo enterprises' ids. */
  enterprises: Record<'aurora' | 'vida', string>;
  /** Signs in again as every login (a session lapses minutes after the clock moves). */
  loginAll(): Promise<void>;
  /** Moves the clock to an instant and signs in again. */
  moveClock(to: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app on the demo data (each demo enterprise with a subscription, a paid invoice and a pending one), its mail
 * going to a local SMTP server, PIX configured with the given settings, signed in as the given logins.
 */
export async function startBillingTest(options: { config: Partial<AppConfig>; logins: readonly DemoLogin[] }): Promise<BillingTest> {
  const smtp = await startSmtpServer();
  const ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url, ...options.config } });
  const tokens = {} as Record<DemoLogin, string>;
  const loginAll = async () => {
    for (const login of options.logins) tokens[login] = (await ctx.login(DEMO_LOGINS[login])).token;
  };
  await loginAll();
  const enterprises = {} as Record<'aurora' | 'vida', string>;
  for (const [key, name] of [['aurora', 'Aurora Alimentos'], ['vida', 'Vida Farma']] as const) {
    enterprises[key] = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }
  return {
    ctx,
    smtp,
    tokens,
    enterprises,
    loginAll,
    async moveClock(to: number) {
      ctx.clock.set(new Date(to));
      await loginAll();
    },
    async close() {
      await ctx.close();
      await smtp.close();
    },
  };
}
