import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';

/** The super admin's Planos screen (issue 13, item 1; ADR 28): plans and the landing page's FAQ. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const SHOTS = process.env.SHOTS_DIR;

/** Desktop and phone screenshots of what the page shows now (and into SHOTS_DIR when a person asked for them). */
async function shots(page: Page, name: string) {
  const desktop = page.viewportSize();
  const take = async (suffix: string) => {
    await screenshot(page, `${name}-${suffix}`);
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${suffix}.png`), fullPage: true });
  };
  await take('desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await take('phone');
  if (desktop) await page.setViewportSize(desktop);
}

async function openMenu(page: Page, label: string) {
  const burger = page.getByRole('button', { name: 'Abrir menu' });
  if (await burger.isVisible()) await burger.click();
  await page.getByTestId('side-menu').getByRole('link', { name: label, exact: true }).click();
}

const rowWith = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('Planos (super admin)', () => {
  it('creates a plan that /plans then offers, and retires it; edits the FAQ', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const violations = await watchCspViolations(page);
    await login(page, 'admin');
    await page.waitForURL('**/my-devices');
    await openMenu(page, 'Planos');
    await page.waitForURL('**/admin/plans');
    await rowWith(page, 'Essencial').waitFor();
    expect(await page.title()).toContain('Planos');
    await shots(page, 'plans-admin');

    await page.getByRole('button', { name: 'Novo plano' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo plano' });
    await dialog.waitFor();
    await dialog.getByLabel('Valor mensal (R$)').fill('12,345');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe o nome do plano.').waitFor();
    await dialog.getByText(/O valor deve ser um valor em reais/).first().waitFor();
    await shots(page, 'plans-admin-form-errors');

    await dialog.getByLabel(/Nome do plano/).fill('Frota Fria');
    await dialog.getByLabel('Limite de dispositivos').fill('25');
    await dialog.getByLabel('Valor mensal (R$)').fill('259,90');
    // Typed as people in Brazil type money, with the thousands dot (issue 26).
    await dialog.getByLabel('Valor anual (R$)').fill('2.599,00');
    await dialog.getByLabel(/Recursos/).fill('Até 25 sensores\nAlarmes por e-mail e Telegram\nRelatórios assinados');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = rowWith(page, 'Frota Fria');
    await row.waitFor();
    expect(await row.innerText()).toContain('R$ 259,90/mês');
    expect(await row.innerText()).toContain('R$ 2.599,00/ano');
    expect(await row.innerText()).toContain('Até 25');

    // /plans offers it, with the price of each cycle.
    await page.goto('/plans');
    await page.getByRole('button', { name: /Frota Fria Mensal$/ }).waitFor();
    const card = page.getByTestId('plan-card').filter({ hasText: 'Frota Fria' });
    expect(await card.innerText()).toContain('R$ 259,90');
    await page.getByRole('tab', { name: 'Anual' }).click();
    expect(await page.getByTestId('plan-card').filter({ hasText: 'Frota Fria' }).innerText()).toContain('R$ 2.599,00');

    // Retired: no longer offered.
    await page.goto('/admin/plans');
    await rowWith(page, 'Frota Fria').getByRole('button', { name: 'Retirar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Retirar plano' });
    await confirm.getByRole('button', { name: 'Retirar' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await rowWith(page, 'Frota Fria').getByText('Retirado').waitFor();
    await shots(page, 'plans-admin-retired');
    await page.goto('/plans');
    await page.getByRole('button', { name: /Essencial Mensal$/ }).waitFor();
    expect(await page.getByTestId('plan-card').filter({ hasText: 'Frota Fria' }).count()).toBe(0);

    // FAQ: a new question, moved to the top, shown on the landing page's list.
    await page.goto('/admin/plans?tab=faq');
    await page.getByTestId('faq-item').first().waitFor();
    await page.getByRole('button', { name: 'Nova pergunta' }).click();
    const faqDialog = page.getByRole('dialog', { name: 'Nova pergunta' });
    await faqDialog.getByLabel(/Pergunta/).fill('Vocês aceitam PIX?');
    await faqDialog.getByLabel(/Resposta/).fill('Sim. Cada fatura tem um código PIX copia e cola e um QR code.');
    await faqDialog.getByRole('button', { name: 'Salvar' }).click();
    await faqDialog.waitFor({ state: 'hidden' });
    const items = page.getByTestId('faq-item');
    await items.filter({ hasText: 'Vocês aceitam PIX?' }).waitFor();
    const count = await items.count();
    for (let i = count - 1; i > 0; i -= 1) {
      await page.getByRole('button', { name: 'Subir: Vocês aceitam PIX?' }).click();
      await expect.poll(async () => (await items.nth(i - 1).innerText()).includes('Vocês aceitam PIX?')).toBe(true);
    }
    await shots(page, 'plans-admin-faq');
    const faq = await page.evaluate(async () => (await (await fetch('/api/faq')).json()) as { question: string }[]);
    expect(faq[0]?.question).toBe('Vocês aceitam PIX?');

    expect(violations).toEqual([]);
    await context.close();
  });

  it('shows the error state of the plans and the empty state of the FAQ', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    await login(page, 'admin');
    await page.waitForURL('**/my-devices');
    // The server down for the plans list; an FAQ with no questions.
    await page.route('**/api/admin/plans', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', error: 'Serviço temporariamente indisponível.' }) }),
    );
    await page.route('**/api/admin/faq', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
    await page.goto('/admin/plans');
    await page.getByRole('alert').filter({ hasText: 'Serviço temporariamente indisponível.' }).waitFor();
    await shots(page, 'plans-admin-error');
    await page.getByRole('tab', { name: 'Perguntas frequentes' }).click();
    await page.getByText('Nenhuma pergunta cadastrada.').waitFor();
    await shots(page, 'plans-admin-faq-empty');
    await context.close();
  });

  it('an enterprise admin has no Planos menu entry and is refused the screen', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    expect(await page.getByTestId('side-menu').getByRole('link', { name: 'Planos', exact: true }).count()).toBe(0);
    await page.goto('/admin/plans');
    await page.getByText('Acesso negado').waitFor();
    await context.close();
  });
});
