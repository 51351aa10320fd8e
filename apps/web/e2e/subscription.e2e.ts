import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';
import { signUpCheck } from './human-check';

/**
 * Subscriptions in the browser (issue 13 items 1, 2 and 6; ADR 32): /complete-register step 3 with the first
 * invoice's PIX code, an upgrade on /plans with its pro-rated invoice, and the overdue/restricted banner.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const SHOTS = process.env.SHOTS_DIR;
const PASSWORD = 'Cofre#Azul7134';

async function shots(page: Page, name: string) {
  const desktop = page.viewportSize();
  const take = async (suffix: string) => {
    await screenshot(page, `${name}-${suffix}`);
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${suffix}.png`), fullPage: true });
  };
  await page.setViewportSize({ width: 1280, height: 800 });
  await take('desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  // The side menu slides away when the width drops: the picture waits until the page fits the phone again.
  await expect
    .poll(async () => {
      const menu = await page.getByTestId('side-menu').boundingBox();
      return (!menu || menu.x + menu.width <= 0) && (await page.evaluate(() => document.documentElement.scrollWidth <= 390));
    })
    .toBe(true);
  await take('phone');
  if (desktop) await page.setViewportSize(desktop);
}

async function query<T>(text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2e('databaseUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('subscription (ADR 32)', () => {
  it('step 3 shows the first invoice with its PIX code; an upgrade on /plans issues and shows the pro-rated one; the banner warns', async () => {
    const base = e2e('baseURL');
    const plans = (await (await fetch(`${base}/api/plans`)).json()) as Array<{ _id: string; name: string; cicle: Array<{ id: string; name: string }> }>;
    const essencial = plans.find((p) => p.name === 'Essencial')!;
    const stamp = Date.now();
    const username = `assina.${stamp}`;
    const signUp = await fetch(`${base}/api/client`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ana Assinante', username, email: `${username}@example.com`, phone: '(11) 98888-1234', password: PASSWORD,
        client: { name: `Câmara Fria ${stamp}` }, plan_id: essencial._id, cicle_id: essencial.cicle.find((c) => c.name === 'Mensal')!.id,
        altcha: await signUpCheck(),
      }),
    });
    expect(signUp.status).toBe(200);

    const { context, page } = await newPage(browser);
    const csp = await watchCspViolations(page);
    await login(page, username, PASSWORD);
    await page.waitForURL(/my-devices/);

    // Step 3: the plan and its first invoice, with the PIX code and QR.
    await page.goto('/complete-register?step=3');
    const first = page.getByTestId('first-invoice');
    await first.getByText('R$ 149,90').first().waitFor();
    const code = await first.locator('textarea').inputValue();
    expect(code).toContain('br.gov.bcb.pix');
    expect(code).toContain(e2e('pixKey'));
    expect(code).toContain('5406149.90');
    await first.getByRole('img').first().waitFor();
    await shots(page, 'complete-register-step3');

    // /plans, reached from the menu (no menu linked it before issue 26): the subscription, then an upgrade to
    // Profissional Mensal at once with its pro-rated invoice.
    await page.getByTestId('side-menu').getByRole('link', { name: 'Plano e assinatura' }).click();
    await page.waitForURL('**/plans');
    await page.getByTestId('subscription-panel').getByText('Essencial').waitFor();
    await shots(page, 'plans-subscription');
    await page.getByTestId('plan-card').filter({ hasText: 'Profissional' }).getByRole('button').click();
    await page.getByText(/Upgrade para Profissional — Mensal: vale agora/).waitFor();
    await shots(page, 'plans-upgrade-confirm');
    const confirm = page.getByRole('button', { name: 'Confirmar troca' });
    await confirm.dblclick();
    const shown = page.getByTestId('change-invoice');
    await shown.waitFor();
    const prorated = await query<{ amount_cents: number; n: string }>(
      `SELECT i.amount_cents, (SELECT count(*) FROM invoices WHERE enterprise_id = i.enterprise_id AND kind = 'proration') AS n
         FROM invoices i JOIN users u ON u.enterprise_id = i.enterprise_id WHERE u.username = $1 AND i.kind = 'proration'`,
      [username],
    );
    expect(prorated.length).toBe(1);
    expect(Number(prorated[0]!.n)).toBe(1);
    // Upgraded on the day it started: the whole difference of the month (R$ 399,90 − R$ 149,90).
    expect(prorated[0]!.amount_cents).toBe(25000);
    await shown.getByText('R$ 250,00').first().waitFor();
    expect(await shown.locator('textarea').inputValue()).toContain('5406250.00');
    // It says it is pro-rated, with the full price for reference (ADR 75).
    expect(await shown.innerText()).toContain('Upgrade de Essencial (Mensal) para Profissional (Mensal): diferença pró-rata pelos dias de');
    expect(await shown.getByTestId('change-invoice-reference').innerText()).toContain('o plano Profissional custa R$ 399,90/mês');
    await page.getByTestId('subscription-panel').getByText('Profissional').waitFor();
    await shots(page, 'plans-upgraded');

    // A downgrade waits for the next cycle; "Cancelar troca" then says only that it was cancelled.
    await page.getByTestId('plan-card').filter({ hasText: 'Essencial' }).getByRole('button').click();
    await page.getByRole('button', { name: 'Confirmar troca' }).click();
    await page.getByText('Pedido de troca de plano registrado!').waitFor();
    await page.getByRole('button', { name: 'Cancelar troca' }).click();
    await page.getByText('Troca de plano cancelada. A empresa continua no plano atual.').waitFor();
    expect(await page.getByText('Pedido de troca de plano registrado!').count()).toBe(0);
    await shots(page, 'plans-change-cancelled');

    // Financeiro marks the pro-rated invoice; its link leads back to the plan.
    await page.getByTestId('side-menu').getByRole('link', { name: 'Financeiro' }).click();
    await page.waitForURL('**/financial');
    await page.getByRole('row').filter({ hasText: 'R$ 250,00' }).getByText('Pró-rata').waitFor();
    expect(await page.getByRole('main').getByRole('link', { name: 'Plano e assinatura' }).getAttribute('href')).toBe('/plans');
    await shots(page, 'financial-prorated');

    // Overdue beyond the grace period (the server's own clock: the invoices' dates are moved back): the banner.
    await query(
      `UPDATE invoices SET status = 'overdue', due_at = now() - interval '11 days'
        WHERE status = 'pending' AND enterprise_id = (SELECT enterprise_id FROM users WHERE username = $1)`,
      [username],
    );
    await query(`UPDATE subscriptions SET status = 'overdue' WHERE enterprise_id = (SELECT enterprise_id FROM users WHERE username = $1)`, [username]);
    await page.goto('/plans');
    const banner = page.getByTestId('subscription-banner');
    await banner.getByText('Fatura vencida').waitFor();
    await shots(page, 'banner-overdue');
    await query(`UPDATE subscriptions SET restricted_at = now() WHERE enterprise_id = (SELECT enterprise_id FROM users WHERE username = $1)`, [username]);
    await page.reload();
    await banner.getByText('Acesso restrito por falta de pagamento').waitFor();
    expect(await banner.getByRole('link', { name: 'Pagar em Financeiro' }).getAttribute('href')).toBe('/financial');
    await shots(page, 'banner-restricted');
    // Every signed-in screen carries it (ADR 39), not only /plans: Meus Dispositivos, and Financeiro where it points.
    await page.goto('/my-devices');
    await page.getByRole('heading', { name: 'Meus Dispositivos' }).waitFor();
    await banner.getByText('Acesso restrito por falta de pagamento').waitFor();
    expect(await banner.innerText()).toContain('Novos usuários, novos dispositivos e upgrades de plano estão bloqueados até o pagamento.');
    await shots(page, 'banner-restricted-my-devices');
    await banner.getByRole('link', { name: 'Pagar em Financeiro' }).click();
    await page.waitForURL('**/financial');
    await banner.getByText('Acesso restrito por falta de pagamento').waitFor();
    await page.getByRole('button', { name: 'Pagar Fatura' }).first().waitFor();
    // Said once: the Faturas tab leaves the enterprise's own warning to the banner.
    expect(await page.getByText('Acesso restrito', { exact: true }).count()).toBe(0);
    await shots(page, 'banner-restricted-financial');

    expect(csp).toEqual([]);
    await context.close();
  }, 240_000);
});
