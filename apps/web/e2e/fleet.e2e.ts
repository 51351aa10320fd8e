import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, login, newPage, watchCspViolations, listEntry } from './browser';
import { e2e } from './environment';

/**
 * Fleet administration (X1, M6, M8): the super admin registers three beacons (one by hand, two from a spreadsheet)
 * and one a gateway discovered, links three to a new enterprise; its admin links one to a user, who sees it in
 * Meus Dispositivos. Screenshots go to SHOTS_DIR (or .tmp/screenshots) for a person to look at.
 */
const SHOTS = process.env.SHOTS_DIR ?? `${import.meta.dirname}/../../../.tmp/screenshots`;
const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let browser: Browser;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const rowWith = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

async function signedIn(username: string, password = DEMO_PASSWORD, viewport = DESKTOP) {
  const { context, page } = await newPage(browser, viewport);
  const violations = await watchCspViolations(page);
  await login(page, username, password);
  await page.waitForURL('**/my-devices');
  return { context, page, violations };
}

async function openMenu(page: Page, label: string) {
  // Below 768 px the menu sits behind the top bar's burger. Decided by the viewport, not by whether the burger is
  // visible yet: right after sign-in the shell may still be loading.
  if ((page.viewportSize()?.width ?? DESKTOP.width) < 768) await page.getByRole('button', { name: 'Abrir menu' }).click();
  await page.getByTestId('side-menu').getByRole('link', { name: label, exact: true }).click();
}

async function beaconSheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Dispositivos');
  sheet.addRow(['MAC', 'Nome', 'Modelo']);
  sheet.addRow(['e2-00-00-00-00-02', 'Beacon Frota 2', 'SNT-T1']);
  sheet.addRow(['e2000000000 3', 'MAC com erro', null]);
  sheet.addRow(['E2:00:00:00:00:03', 'Beacon Frota 3', null]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('fleet administration (X1, M6, M8)', () => {
  it('registers beacons, links them to a new enterprise, then to a user who sees them', async () => {
    // A gateway hears a beacon nobody registered: it is listed as discovered.
    const ingest = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'ApiKey demo-gateway-key' },
      body: JSON.stringify({ readings: [{ mac: 'E2:00:00:00:00:09', ts: new Date(Date.now() - 60_000).toISOString(), temperature: 5 }] }),
    });
    expect((await ingest.json()).rejected[0].code).toBe('unknown_device');

    const admin = await signedIn('admin');
    const page = admin.page;
    await openMenu(page, 'Cadastrar Dispositivos');
    await page.waitForURL('**/beacons');
    await page.getByRole('heading', { name: 'Cadastrar Dispositivos' }).waitFor();
    await rowWith(page, 'E2:00:00:00:00:09').waitFor();

    // Bad input first: a malformed MAC is said in Portuguese, nothing is sent.
    await page.getByLabel(/^Endereço MAC/).fill('E2:00:00');
    await page.getByLabel(/^Nome/).fill('Beacon Frota 1');
    await page.locator('form').getByRole('button', { name: 'Cadastrar', exact: true }).click();
    await page.getByText('Endereço MAC inválido. Use o formato AA:BB:CC:DD:EE:FF.').waitFor();
    await shot(page, 'beacons-error');

    // One by hand.
    await page.getByLabel(/^Endereço MAC/).fill('e2:00:00:00:00:01');
    await page.locator('form').getByRole('button', { name: 'Cadastrar', exact: true }).click();
    await page.getByText('Dispositivo cadastrado com sucesso! (E2:00:00:00:00:01)').waitFor();

    // Two from a spreadsheet with a bad row: one message for it, the others registered.
    await page.locator('input[type="file"]').setInputFiles({ name: 'dispositivos.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await beaconSheet() });
    await page.getByText('2 dispositivo(s) cadastrado(s) com sucesso!').waitFor();
    await page.getByText('Linha 3: Endereço MAC inválido. Use o formato AA:BB:CC:DD:EE:FF. (e2000000000 3)').waitFor();

    // The discovered one, in one click; it leaves the list.
    await rowWith(page, 'E2:00:00:00:00:09').getByRole('button', { name: 'Cadastrar' }).click();
    // Other files of this worker share the server and may have left their own unknown MACs: this one leaves the list.
    await expect.poll(() => rowWith(page, 'E2:00:00:00:00:09').count(), { timeout: 30_000 }).toBe(0);
    await shot(page, 'beacons-desktop');

    // A new enterprise, then its devices from Empresas → Dispositivos.
    await page.goto('/register-enterprise');
    await page.getByLabel(/^Nome/).fill('Frota Gelada Ltda');
    await page.getByLabel(/^Email/).fill('contato@frotagelada.example');
    await page.getByLabel(/^Senha/).fill('Gelo#Norte2026');
    await page.getByLabel(/^Confirmar Senha/).fill('Gelo#Norte2026');
    await page.getByRole('button', { name: 'Salvar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Empresa cadastrada com Sucesso' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('credential-username').innerText()).toBe('frota.adm');
    await dialog.getByRole('button', { name: 'Voltar para Empresas' }).click();
    await page.waitForURL('**/enterprises');
    await rowWith(page, 'Frota Gelada Ltda').getByRole('link', { name: 'Dispositivos' }).click();
    await page.waitForURL('**/add-beacons?id=*');
    expect(new URL(page.url()).searchParams.get('numDevices')).toBe('0');
    await page.getByRole('heading', { name: 'Vincular Dispositivos' }).waitFor();
    await page.getByText('Dispositivos da empresa Frota Gelada Ltda').waitFor();
    expect(await page.getByTestId('selection-counter').innerText()).toBe('0 itens selecionados');

    // Search by name, case-insensitively; then by MAC.
    await page.getByLabel('Buscar dispositivo').fill('beacon FROTA');
    await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
    await rowWith(page, 'Beacon Frota 3').waitFor();
    expect(await page.getByText('Baú Caminhão 01').count()).toBe(0);
    for (const name of ['Beacon Frota 1', 'Beacon Frota 2', 'Beacon Frota 3']) await rowWith(page, name).getByRole('checkbox').check();
    expect(await page.getByTestId('selection-counter').innerText()).toBe('3 itens selecionados');
    await page.getByLabel('Buscar dispositivo').fill('zz:zz');
    await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
    await page.getByText('Nada encontrado...').waitFor();
    await shot(page, 'add-beacons-empty');
    await page.getByLabel('Buscar dispositivo').fill('');
    await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
    await page.getByLabel('Filtrar selecionados').check();
    await rowWith(page, 'Beacon Frota 2').waitFor();
    expect(await page.getByRole('row').count()).toBe(4);
    await shot(page, 'add-beacons-client');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Dispositivos vínculados com sucesso!').waitFor();
    await page.waitForURL('**/select-user?id=*');
    expect(admin.violations).toEqual([]);
    await admin.context.close();

    // The enterprise has only its admin yet (creating users is another screen, A13): one ordinary user, as the
    // enterprise would have, with the demo password.
    const db = new pg.Client({ connectionString: e2e('databaseUrl') });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO users (name, username, email, password_hash, profile_id, enterprise_id, verified)
         SELECT 'Motorista Frota', 'motorista.frota', 'motorista@frotagelada.example', u.password_hash, 3, e.id, true
         FROM users u, enterprises e WHERE u.username = 'joao.silva' AND e.name = 'Frota Gelada Ltda'`,
      );
    } finally {
      await db.end();
    }

    // Its admin links one device to the user, from Usuários → Gerenciar.
    const owner = await signedIn('frota.adm', 'Gelo#Norte2026');
    await openMenu(owner.page, 'Usuários');
    await owner.page.waitForURL('**/select-user');
    await rowWith(owner.page, 'Motorista Frota').getByRole('link', { name: 'Gerenciar' }).click();
    await owner.page.waitForURL('**/add-beacons?id=*&eID=*');
    await owner.page.getByText('Dispositivos do usuário Motorista Frota').waitFor();
    await rowWith(owner.page, 'Beacon Frota 2').getByRole('checkbox').check();
    expect(await owner.page.getByTestId('selection-counter').innerText()).toBe('1 item selecionado');
    expect(await owner.page.getByText('Baú Caminhão 01').count()).toBe(0);
    await owner.page.getByRole('button', { name: 'Salvar' }).click();
    await owner.page.getByText('Dispositivos vínculados com sucesso!').waitFor();
    await owner.page.waitForURL('**/select-user');
    // The list loads again after the navigation: wait for the row with its new count.
    await expect.poll(() => rowWith(owner.page, 'Motorista Frota').getByRole('cell').allTextContents()).toContain('1');
    expect(owner.violations).toEqual([]);
    await owner.context.close();

    // The user sees exactly that device.
    const user = await signedIn('motorista.frota');
    await user.page.getByRole('heading', { name: 'Meus Dispositivos' }).waitFor();
    await rowWith(user.page, 'Beacon Frota 2').waitFor();
    expect(await user.page.getByText('Beacon Frota 1').count()).toBe(0);
    await shot(user.page, 'my-devices-linked');
    await user.context.close();
  });

  it('looks right on a phone', async () => {
    const admin = await signedIn('admin', DEMO_PASSWORD, MOBILE);
    await openMenu(admin.page, 'Cadastrar Dispositivos');
    await admin.page.waitForURL('**/beacons');
    await admin.page.getByRole('heading', { name: 'MACs descobertos pelos gateways' }).waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      await shot(admin.page, 'beacons-phone-failure');
      throw error;
    });
    await shot(admin.page, 'beacons-phone');
    const aurora = admin.page;
    await aurora.goto('/enterprises');
    await listEntry(aurora, 'enterprise-card').filter({ hasText: 'Aurora Alimentos' }).getByRole('link', { name: 'Dispositivos' }).click();
    await aurora.waitForURL('**/add-beacons?id=*');
    await rowWith(aurora, 'Baú Caminhão 01').waitFor();
    await shot(aurora, 'add-beacons-phone');
    expect(admin.violations).toEqual([]);
    await admin.context.close();
  });
});
