import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_PASSWORD, deviceEntry, launchBrowser, login, newPage, screenshot } from './browser';
import { e2e } from './environment';

/** X11 in Chromium: GxP mode, a limit changed with its reason, an acknowledgement signed, the audit trail. */
let browser: Browser;
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma, "Geladeira Vacinas", 2 to 8 °C
const REASON = 'Faixa ajustada ao novo POP de vacinas (POP-014).';

async function api(method: string, url: string, token: string | null, body?: unknown) {
  const res = await fetch(`${e2e('baseURL')}${url}`, {
    method,
    headers: { 'content-type': 'application/json', client: 'e2e', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function token(username: string): Promise<string> {
  const res = await api('POST', '/api/authenticate', null, { username, password: DEMO_PASSWORD });
  return (res.body.token as { token: string }).token;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  // Other files share this server: Vida Farma leaves GxP mode as it found it (off).
  await api('PUT', '/api/enterprise/compliance', await token('vida.adm'), { gxp: false, reason: 'Fim do teste de ponta a ponta.' });
  await browser?.close();
});

describe('X11 audit trail, reasons and signatures in the browser', () => {
  it('X11 turns GxP mode on, changes a limit with its reason, signs an acknowledgement, and reads both in the trail', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'vida.adm');
    await page.waitForURL('**/my-devices');

    // Configurações → Conformidade (GxP).
    await page.goto('/settings');
    const section = page.getByTestId('compliance-section');
    await section.getByLabel('Modo GxP').click();
    await section.getByText('Ativo: motivos e assinaturas eletrônicas são exigidos.').waitFor();
    await screenshot(page, 'x11-settings-gxp');

    // The device's configuration asks the reason in the same modal.
    await page.goto('/my-devices');
    await deviceEntry(page, 'Geladeira Vacinas').getByRole('link', { name: 'Histórico' }).first().click();
    await page.waitForURL(`**/device-history/${encodeURIComponent(VACCINES)}/**`);
    const deviceId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('button', { name: 'Configurações' }).click();
    const modal = page.getByRole('dialog', { name: 'Configurações do dispositivo' });
    await modal.getByLabel('Temperatura máxima (°C)').fill('7,5');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await modal.getByText('Informe o motivo da alteração.').waitFor();
    await modal.getByTestId('reason-field').fill(REASON);
    await screenshot(page, 'x11-device-config-reason');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await modal.waitFor({ state: 'hidden' });

    // An alarm opens (a reading out of range) and its acknowledgement is signed.
    const ingest = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
      method: 'POST',
      headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ mac: VACCINES, ts: new Date().toISOString(), temperature: 12, humidity: 50 }] }),
    });
    expect(ingest.status).toBe(200);
    await page.getByRole('tab', { name: 'Alarmes' }).click();
    const details = page.getByRole('button', { name: 'Detalhes do alarme' });
    await expect.poll(() => details.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await details.first().click();
    const alarm = page.getByRole('dialog', { name: 'Detalhes do alarme' });
    await alarm.getByLabel('Reconhecer alarme').fill('Porta da geladeira fechada; vacinas verificadas.');
    await alarm.getByTestId('signature-fields').waitFor();
    await alarm.getByRole('combobox', { name: 'Significado da assinatura' }).click();
    await alarm.getByRole('option', { name: 'Revisado' }).click();
    await alarm.getByLabel('Sua senha').fill('senha-errada');
    await alarm.getByRole('button', { name: 'Reconhecer e assinar' }).click();
    await page.getByText('Senha incorreta. A assinatura não foi registrada.').waitFor();
    await alarm.getByLabel('Sua senha').fill(DEMO_PASSWORD);
    await screenshot(page, 'x11-alarm-signature');
    await alarm.getByRole('button', { name: 'Reconhecer e assinar' }).click();
    await alarm.getByTestId('signature-line').waitFor();
    expect(await alarm.getByTestId('signature-line').innerText()).toMatch(/Assinado eletronicamente por Vida Farma Administração \(vida\.adm\) em .* — Revisado/);

    // The trail of the device: the change with its reason, before and after; the signed acknowledgement.
    await page.keyboard.press('Escape');
    await page.locator('a[href*="/audit-trail?entity_id="]').click();
    await page.waitForURL(`**/audit-trail?entity_id=${deviceId}`);
    const entries = page.getByTestId('audit-entry');
    await entries.first().waitFor();
    const change = entries.filter({ hasText: REASON });
    await change.waitFor();
    expect(await change.innerText()).toMatch(/Temperatura máxima\s+8\s+7,5/);
    await entries.filter({ hasText: 'Porta da geladeira fechada' }).first().waitFor();
    await page.getByRole('button', { name: 'Verificar integridade' }).click();
    expect(await page.getByTestId('verify-result').innerText()).toMatch(/Trilha íntegra/);
    await screenshot(page, 'x11-audit-trail');

    // The filtered trail exported signed (ADR 0063): a PDF, and the CSV with its signature in a ZIP.
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PDF assinado' }).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^trilha-de-auditoria-\d{8}\.pdf$/);
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV assinado' }).click()]);
    expect(zip.suggestedFilename()).toMatch(/^trilha-de-auditoria-\d{8}\.zip$/);

    // At a phone's width the same screen reads top to bottom.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await entries.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'x11-audit-trail-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A report of the device, approved from Relatórios with an electronic signature (ADR 0062).
    await page.goto(`/device-history/${encodeURIComponent(VACCINES)}/${deviceId}`);
    const exportButtons = page.getByTestId('export-buttons');
    await exportButtons.getByText('Exportar leituras filtradas:').waitFor();
    await Promise.all([page.waitForEvent('download', { timeout: 45_000 }), exportButtons.getByRole('button', { name: 'PDF' }).click()]);
    await page.goto('/reports');
    await page.getByRole('button', { name: 'Aprovar' }).first().click();
    const approval = page.getByRole('dialog', { name: 'Aprovar relatório' });
    await approval.getByRole('combobox', { name: 'Significado da assinatura' }).click();
    await approval.getByRole('option', { name: 'Aprovado' }).click();
    await approval.getByLabel('Sua senha').fill(DEMO_PASSWORD);
    await screenshot(page, 'x11-report-approval');
    await approval.getByRole('button', { name: 'Aprovar e assinar' }).click();
    await approval.waitFor({ state: 'hidden' });
    const signed = page.getByTestId('signature-line').first();
    await signed.waitFor();
    expect(await signed.innerText()).toMatch(/Assinado eletronicamente por Vida Farma Administração \(vida\.adm\) em .* — Aprovado/);
    await screenshot(page, 'x11-reports-approved');
    // At a phone's width the page itself never scrolls sideways (each report is a card there, its signature in it).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('signature-line').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'x11-reports-approved-phone');
    await context.close();
  });
});
