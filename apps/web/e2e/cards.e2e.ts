import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';

/**
 * The Financeiro's cards carousel (issue 13 item 4; ADR 31) against the local Pagar.me the e2e server is configured
 * with: the number goes from Chromium straight to the provider, our server sees only the token. The spec relies only
 * on the carousel's own texts after opening /financial.
 */
let browser: Browser;
let bare: { url: string; process: ChildProcess } | undefined;
const root = path.resolve(import.meta.dirname, '../../..');
const SHOTS = process.env.SHOTS_DIR;
const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');

/** A second server on the same database with no card provider configured (the state of a plain `npm start`). */
async function startServerWithoutProvider(): Promise<{ url: string; process: ChildProcess }> {
  // @ts-expect-error plain ESM helpers shared with the test runner script
  const { freePort } = await import('../../../scripts/lib/postgres.mjs');
  const { serverArgs } = await import('../../../scripts/lib/server-process.mjs');
  const port = (await freePort()) as number;
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_ENABLED: '0',
      DATABASE_URL: e2e('databaseUrl'),
      DEMO: '1',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(root, 'apps/web/dist'),
      LOGIN_MAX_PER_MINUTE: '100',
      BILLING_CYCLE_MINUTES: '0',
      CARD_PROVIDER: '',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the server without a card provider did not become healthy');
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, process: child };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  const server = bare;
  if (server && server.process.exitCode === null) {
    server.process.kill('SIGTERM');
    await new Promise((r) => server.process.once('exit', r));
  }
});

async function shot(page: Page, name: string) {
  await screenshot(page, name);
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const cardArticle = (page: Page, name: string) => page.getByRole('article', { name: `Cartão ${name}` });

async function addCard(page: Page, number: string, holder: string) {
  await page.getByRole('button', { name: 'Adicionar cartão' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adicionar cartão' });
  await dialog.waitFor();
  await dialog.getByLabel(/Número do cartão/).fill(number);
  await dialog.getByLabel(/Nome impresso no cartão/).fill(holder);
  await dialog.getByLabel(/Validade/).fill(`12${nextYear}`);
  await dialog.getByLabel(/CVV/).fill('123');
  await dialog.getByRole('button', { name: 'Salvar cartão' }).click();
  return dialog;
}

describe('Financeiro: cards carousel', () => {
  it('adds cards through the provider, makes another main, removes one; our server never sees a number', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const violations = await watchCspViolations(page);
    const baseURL = e2e('baseURL');
    const toProvider: string[] = [];
    const toUs: string[] = [];
    page.on('request', (request) => {
      const record = `${request.method()} ${request.url()} ${request.postData() ?? ''}`;
      if (request.url().startsWith(e2e('pagarmeURL'))) toProvider.push(record);
      else if (request.url().startsWith(baseURL)) toUs.push(record);
    });

    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/financial');
    await page.getByText('Nenhum cartão cadastrado.').waitFor();
    await shot(page, 'cards-empty-desktop');

    const dialog = await addCard(page, '4000 0000 0000 0010', 'AURORA ALIMENTOS LTDA');
    await dialog.waitFor({ state: 'hidden' });
    const visa = cardArticle(page, 'Visa final 0010');
    await visa.getByText('Cartão Principal').waitFor();
    expect(await visa.innerText()).toContain('•••• •••• •••• 0010');
    expect(await visa.innerText()).toContain(`12/${nextYear}`);

    // The simulator's failing card: the issuer refuses it, the dialog says so, nothing is added.
    const declined = await addCard(page, '4000000000000028', 'AURORA ALIMENTOS LTDA');
    await declined.getByText('Cartão recusado pelo emissor. Verifique os dados ou use outro cartão.').waitFor();
    await shot(page, 'cards-declined-desktop');
    await declined.getByRole('button', { name: 'Cancelar' }).click();
    await declined.waitFor({ state: 'hidden' });
    expect(await page.getByRole('article').count()).toBe(1);

    await (await addCard(page, '5555 5555 5555 4444', 'AURORA ALIMENTOS LTDA')).waitFor({ state: 'hidden' });
    const master = cardArticle(page, 'Mastercard final 4444');
    await master.waitFor();
    expect(await master.getByText('Cartão Principal').count()).toBe(0);
    await master.getByRole('button', { name: 'Tornar Principal' }).click();
    await master.getByText('Cartão Principal').waitFor();
    await visa.getByRole('button', { name: 'Tornar Principal' }).waitFor();
    expect(await page.getByText('Cartão Principal', { exact: true }).count()).toBe(1);

    await (await addCard(page, '4000 0000 0000 0010', 'AURORA FILIAL')).waitFor({ state: 'hidden' });
    await page.getByRole('article').nth(2).waitFor();
    await shot(page, 'cards-three-desktop');

    // The phone: one card at a time, the arrows wrap around.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText('1 de 3').waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    await cardArticle(page, 'Mastercard final 4444').waitFor();
    await shot(page, 'cards-phone');
    await page.getByRole('button', { name: 'Cartão anterior' }).click();
    await page.getByText('3 de 3').waitFor();
    await page.getByRole('button', { name: 'Próximo cartão' }).click();
    await page.getByRole('button', { name: 'Próximo cartão' }).click();
    await page.getByText('2 de 3').waitFor();
    await page.getByRole('button', { name: 'Adicionar cartão' }).click();
    await page.getByRole('dialog', { name: 'Adicionar cartão' }).waitFor();
    await shot(page, 'cards-add-phone');
    await page.getByRole('dialog', { name: 'Adicionar cartão' }).getByRole('button', { name: 'Cancelar' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });

    const firstVisa = page.getByRole('article').filter({ hasText: 'AURORA ALIMENTOS LTDA' }).filter({ hasText: '0010' });
    await firstVisa.getByRole('button', { name: 'Remover Visa final 0010' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remover cartão' });
    await confirm.getByRole('button', { name: 'Remover' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('article').nth(1).waitFor();
    expect(await page.getByRole('article').count()).toBe(2);
    expect(await page.getByRole('article').filter({ hasText: 'AURORA ALIMENTOS LTDA' }).filter({ hasText: '0010' }).count()).toBe(0);
    await page.reload();
    await cardArticle(page, 'Mastercard final 4444').getByText('Cartão Principal').waitFor();
    expect(await page.getByRole('article').count()).toBe(2);

    // The numbers went to the provider's tokenizer only; our server received tokens.
    expect(toProvider.filter((r) => r.includes('4000000000000010'))).toHaveLength(2);
    expect(toProvider.some((r) => r.includes('5555555555554444'))).toBe(true);
    for (const request of toUs) expect(request).not.toMatch(/4000000000000010|4000000000000028|5555555555554444|"cvv"/);
    expect(toUs.filter((r) => r.startsWith('POST') && r.includes('/api/cards ') && /"token":"token_/.test(r))).toHaveLength(4);
    expect(violations).toEqual([]);
    await context.close();
  }, 180_000);

  it('without a provider, the add-card button explains it and points to PIX', async () => {
    // Started only now: booting it beside the first spec slows both on a busy machine.
    bare = await startServerWithoutProvider();
    const context = await browser.newContext({ baseURL: bare.url, viewport: { width: 1280, height: 800 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    const page = await context.newPage();
    const violations = await watchCspViolations(page);
    await login(page, 'vida.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/financial');
    // A second server on a busy machine answers its first page slowly: more time than the default 30 s.
    await page.getByText(/Nenhum cartão cadastrado\. Pagamento por cartão não está disponível/).waitFor({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Adicionar cartão' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar cartão' });
    await dialog.getByText('Pagamento por cartão indisponível').waitFor();
    expect(await dialog.innerText()).toContain('Pagar Fatura');
    expect(await dialog.getByLabel(/Número do cartão/).count()).toBe(0);
    await shot(page, 'cards-no-provider-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'cards-no-provider-phone');
    await dialog.getByRole('button', { name: 'Entendi' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(violations).toEqual([]);
    await context.close();
  }, 180_000);
});
