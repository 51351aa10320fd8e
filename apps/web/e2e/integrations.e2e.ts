import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';

/**
 * X13 "Integrações" in Chromium (ADRs 64–66): an administrator creates a token (shown once, with a copy button and a
 * curl example for this server), uses and revokes it; creates a webhook (secret shown once), tests it against a
 * receiver that refuses first, reads the delivery log and redelivers; switches and deletes it. Desktop and 390 px.
 */
let browser: Browser;
const received: { headers: IncomingHttpHeaders; body: string; answered: number }[] = [];
const answers: number[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const status = answers.shift() ?? 200;
    received.push({ headers: req.headers, body, answered: status });
    res.writeHead(status).end(status === 200 ? 'ok' : 'indisponível');
  });
});
let receiverUrl: string;

beforeAll(async () => {
  browser = await launchBrowser();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sentinela`;
});
afterAll(async () => {
  await browser?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const PHONE = { width: 390, height: 844 };
// Animations (modals, notifications) finish before a screenshot is taken.
const settle = (page: Page) => page.waitForTimeout(400);

async function openIntegrations(page: Page, viaMenu: boolean) {
  await login(page, 'aurora.adm');
  await page.waitForURL('**/my-devices');
  if (viaMenu) await page.getByTestId('side-menu').getByRole('link', { name: 'Integrações' }).click();
  // On a phone the menu sits behind the burger (its own specs cover it): the address is enough here.
  else await page.goto('/integrations');
  await page.waitForURL('**/integrations');
  await page.getByRole('heading', { name: 'Integrações' }).waitFor();
}

describe('X13 Integrações', () => {
  it('creates a token shown once, with a curl example for this server, that works until it is revoked', async () => {
    const { context, page } = await newPage(browser, { width: 1366, height: 900 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const csp = await watchCspViolations(page);
    await openIntegrations(page, true);
    await page.getByText('Nenhum token criado').waitFor();
    await screenshot(page, 'integrations-tokens-empty-desktop');

    await page.getByRole('button', { name: 'Novo token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo token de API' });
    await dialog.getByRole('button', { name: 'Criar token' }).click();
    await dialog.getByText('Informe o nome do token.').waitFor();
    await dialog.getByLabel('Nome').fill('ERP Qualidade');
    await dialog.getByRole('button', { name: 'Criar token' }).click();
    await dialog.getByText('Escolha ao menos um escopo.').waitFor();
    await dialog.getByLabel('Ler dispositivos e locais').check();
    await dialog.getByLabel('Ler e exportar leituras').check();
    await settle(page);
    await screenshot(page, 'integrations-token-create-desktop');
    await dialog.getByRole('button', { name: 'Criar token' }).click();

    const done = page.getByRole('dialog', { name: 'Token criado' });
    await done.getByText('Copie o token agora').waitFor();
    const token = (await done.locator('code').first().textContent())!.trim();
    expect(token).toMatch(/^stk_[A-Za-z0-9_-]{43}$/);
    const curl = (await done.getByText(/^curl -sS/).first().textContent())!;
    expect(curl).toContain(`${e2e('baseURL')}/api/readings?limit=100`);
    expect(curl).toContain(`Authorization: Bearer ${token}`);
    await done.getByRole('button', { name: 'Copiar token' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await settle(page);
    await screenshot(page, 'integrations-token-created-desktop');

    // The token works as the example says, within its scopes.
    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(`${e2e('baseURL')}/api/readings?limit=100`, { headers })).status).toBe(200);
    expect((await fetch(`${e2e('baseURL')}/api/travels`, { headers })).status).toBe(403);

    await done.getByRole('button', { name: 'Concluir' }).click();
    const row = page.getByRole('row').filter({ hasText: 'ERP Qualidade' });
    await row.getByText('Ativo').waitFor();
    await expect(row.textContent()).resolves.toContain(token.slice(0, 8));
    await expect(row.textContent()).resolves.not.toContain(token.slice(8));
    await screenshot(page, 'integrations-tokens-desktop');

    await row.getByRole('button', { name: 'Revogar ERP Qualidade' }).click();
    await page.getByRole('dialog', { name: 'Revogar token' }).getByRole('button', { name: 'Revogar' }).click();
    await row.getByText('Revogado').waitFor();
    expect((await fetch(`${e2e('baseURL')}/api/readings?limit=100`, { headers })).status).toBe(401);
    expect(csp).toEqual([]);
    await context.close();
  });

  it('creates a webhook, tests it against a receiver that refuses, redelivers from the log, switches and deletes it', async () => {
    const { context, page } = await newPage(browser, { width: 1366, height: 900 });
    const csp = await watchCspViolations(page);
    await openIntegrations(page, true);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.waitForURL('**/integrations?aba=webhooks');
    await page.getByText('Nenhum webhook cadastrado').waitFor();

    await page.getByRole('button', { name: 'Novo webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo webhook' });
    await dialog.getByLabel('URL').fill('ftp://erp.exemplo.com.br');
    await dialog.getByLabel('Alarme aberto').check();
    await dialog.getByRole('button', { name: 'Criar webhook' }).click();
    await dialog.getByText('URL inválida: use um endereço https:// completo.').waitFor();
    await dialog.getByLabel('URL').fill(receiverUrl);
    await dialog.getByLabel('Alarme encerrado').check();
    await dialog.getByLabel('Descrição').fill('Sistema da qualidade');
    await dialog.getByRole('button', { name: 'Criar webhook' }).click();
    const done = page.getByRole('dialog', { name: 'Webhook criado' });
    await done.getByText('Copie o segredo agora').waitFor();
    const secret = (await done.locator('code').first().textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await settle(page);
    await screenshot(page, 'integrations-webhook-created-desktop');
    await done.getByRole('button', { name: 'Concluir' }).click();

    const card = page.getByTestId('webhook-card').filter({ hasText: receiverUrl });
    await card.getByText('alarm.opened').waitFor();
    await card.getByText('Ativo').waitFor();

    // Testar: the receiver refuses the first delivery; the log says so; Reenviar delivers it.
    answers.push(503);
    await card.getByRole('button', { name: 'Testar' }).click();
    const log = page.getByRole('dialog', { name: 'Registro de entregas' });
    await log.getByRole('row').filter({ hasText: 'Teste' }).getByText('Falhou').waitFor({ timeout: 30_000 });
    await log.getByRole('row').filter({ hasText: 'Teste' }).getByText('503').waitFor();
    await log.getByRole('button', { name: 'Reenviar' }).click();
    await log.getByRole('row').filter({ hasText: 'Teste' }).getByText('Entregue').waitFor({ timeout: 30_000 });
    await log.getByRole('row').filter({ hasText: 'Teste' }).getByRole('button', { name: 'Expandir detalhes' }).click();
    await log.getByText('Tentativa 2 (manual)').waitFor();
    await settle(page);
    await screenshot(page, 'integrations-delivery-log-desktop');

    // What the receiver got is signed per Standard Webhooks, with the same webhook-id both times.
    expect(received.map((r) => r.answered)).toEqual([503, 200]);
    expect(received[0]!.headers['webhook-id']).toBe(received[1]!.headers['webhook-id']);
    const payload = new StandardWebhook(secret).verify(received[1]!.body, received[1]!.headers as Record<string, string>) as { type: string };
    expect(payload.type).toBe('webhook.test');
    await log.getByRole('button', { name: 'Fechar' }).click();

    // An alarm of an Aurora device reaches it too.
    const reading = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'ApiKey demo-gateway-key' },
      body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:01:02', ts: new Date().toISOString(), temperature: 14, humidity: 55 }] }),
    });
    expect(reading.status).toBe(200);
    await expect.poll(() => received.filter((r) => (JSON.parse(r.body) as { type: string }).type === 'alarm.opened').length, { timeout: 30_000 }).toBe(1);
    // Back inside its range, so that the files after this one on the same server find no alarm of ours open.
    const back = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'ApiKey demo-gateway-key' },
      body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:01:02', ts: new Date().toISOString(), temperature: 4, humidity: 55 }] }),
    });
    expect(back.status).toBe(200);

    await card.getByRole('button', { name: 'Desativar' }).click();
    await card.getByText('Desativado', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Ativar' }).click();
    await card.getByText('Ativo', { exact: true }).waitFor();
    await screenshot(page, 'integrations-webhooks-desktop');

    await card.getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog', { name: 'Excluir webhook' }).getByRole('button', { name: 'Excluir' }).click();
    await page.getByText('Nenhum webhook cadastrado').waitFor();
    expect(csp).toEqual([]);
    await context.close();
  });

  it('fits a phone (390 px): token cards, webhook cards and the creation forms', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await openIntegrations(page, false);
    await page.getByTestId('token-card').filter({ hasText: 'ERP Qualidade' }).getByText('Revogado').waitFor();
    await screenshot(page, 'integrations-tokens-phone');
    await page.getByRole('button', { name: 'Novo token' }).click();
    await page.getByRole('dialog', { name: 'Novo token de API' }).getByLabel('Nome').waitFor();
    await settle(page);
    await screenshot(page, 'integrations-token-create-phone');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

    await page.goto('/integrations?aba=webhooks');
    await page.getByRole('button', { name: 'Novo webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo webhook' });
    await dialog.getByLabel('URL').fill(receiverUrl);
    await dialog.getByLabel('Relatório concluído').check();
    await dialog.getByRole('button', { name: 'Criar webhook' }).click();
    await page.getByRole('dialog', { name: 'Webhook criado' }).getByRole('button', { name: 'Concluir' }).click();
    await page.getByTestId('webhook-card').first().waitFor();
    await settle(page);
    await screenshot(page, 'integrations-webhooks-phone');
    // No sideways scrolling of the page itself.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'Entregas' }).click();
    const log = page.getByRole('dialog', { name: 'Registro de entregas' });
    await log.getByText('Nenhuma entrega ainda').waitFor();
    await log.getByRole('button', { name: 'Fechar' }).click();
    // Testar opens the log, as cards on a phone, with the attempts behind "Detalhes".
    await page.getByRole('button', { name: 'Testar' }).click();
    const delivery = log.getByTestId('delivery-card').filter({ hasText: 'Teste' });
    await delivery.getByText('Entregue').waitFor({ timeout: 30_000 });
    await delivery.getByRole('button', { name: 'Detalhes' }).click();
    await delivery.getByText(/^Tentativa 1 ·/).waitFor();
    await settle(page);
    await screenshot(page, 'integrations-delivery-log-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });

  it('is not offered to a user, and its address says access is denied', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'joao.silva');
    await page.waitForURL('**/my-devices');
    await expect(page.getByTestId('side-menu').getByRole('link', { name: 'Integrações' }).count()).resolves.toBe(0);
    await page.goto('/integrations');
    await page.getByRole('heading', { name: 'Acesso negado' }).waitFor();
    await context.close();
  });
});
