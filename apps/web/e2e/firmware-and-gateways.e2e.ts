import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectActionsInView, launchBrowser, login, newPage, screenshot, watchCspViolations, listEntry } from './browser';
import { e2e } from './environment';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function signedIn(username: string, viewport = DESKTOP) {
  const { context, page } = await newPage(browser, viewport);
  const csp = await watchCspViolations(page);
  await login(page, username);
  await page.waitForURL('**/my-devices');
  return { context, page, csp };
}

async function openMenu(page: Page, label: string) {
  const burger = page.getByRole('button', { name: 'Abrir menu' });
  if (await burger.isVisible()) await burger.click();
  await page.getByTestId('side-menu').getByRole('link', { name: label, exact: true }).click();
}

/** Lets a modal's opening transition finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);
const rowWith = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** A firmware image: bytes that are not text. */
const image = (size: number, seed: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 37 + seed) % 256));

async function addVersion(page: Page, version: string, notes: string, file: { name: string; buffer: Buffer } | null) {
  await page.getByRole('button', { name: 'Nova versão' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova versão' });
  await dialog.waitFor();
  await dialog.getByLabel(/^Versão/).fill(version);
  if (notes) {
    const editor = dialog.getByRole('textbox', { name: 'Notas da versão' });
    await editor.click();
    await page.keyboard.type(notes);
  }
  if (file) await dialog.locator('input[type="file"]').setInputFiles({ name: file.name, mimeType: 'application/octet-stream', buffer: file.buffer });
  return dialog;
}

describe('firmware (M1)', () => {
  const v100 = image(5000, 1);
  const v101 = image(7000, 2);

  it('the super admin adds 1.0.0 then 1.0.1, sees 1.0.0 refused afterwards, and downloads 1.0.0 byte for byte', async () => {
    const { context, page, csp } = await signedIn('admin');
    await openMenu(page, 'Firmwares');
    await page.waitForURL('**/firmware');
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Firmwares · Sentinela');
    await page.getByText('Nenhum versão registrada').waitFor();
    expect(await page.getByTestId('current-version').innerText()).toBe('--');
    await screenshot(page, 'firmware-empty-desktop');

    // Nothing filled in: each field says what it needs.
    let dialog = await addVersion(page, '', '', null);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe a versão.').waitFor();
    await dialog.getByText('Selecione o arquivo do firmware.').waitFor();
    await settle(page);
    await screenshot(page, 'firmware-add-errors-desktop');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The mask turns typed digits into 9.9.9.
    dialog = await addVersion(page, '100', 'Primeira versão: leitura de temperatura a cada minuto.', { name: 'sentinela-gw-1.0.0.bin', buffer: v100 });
    expect(await dialog.getByLabel(/^Versão/).inputValue()).toBe('1.0.0');
    await settle(page);
    await screenshot(page, 'firmware-add-filled-desktop');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Nova versão do Firmware salva com sucesso!').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await rowWith(page, '1.0.0').waitFor();
    expect(await page.getByTestId('current-version').innerText()).toBe('1.0.0');

    dialog = await addVersion(page, '1.0.1', 'Correção do consumo de bateria.', { name: 'sentinela-gw-1.0.1.bin', buffer: v101 });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await rowWith(page, '1.0.1').waitFor();
    expect(await page.getByTestId('current-version').innerText()).toBe('1.0.1');
    // Newest first: the current version heads the table.
    const firstRow = page.getByRole('row').nth(1);
    expect(await firstRow.innerText()).toContain('1.0.1');

    // 1.0.0 again is refused with the documents' message.
    dialog = await addVersion(page, '1.0.0', '', { name: 'velho.bin', buffer: image(10, 3) });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('A nova versão não pode ser menor ou igual a atual').waitFor();
    await settle(page);
    await screenshot(page, 'firmware-add-not-higher-desktop');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // ...and by the server too, whatever the client checks.
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    expect(token).toBeTruthy();
    {
      const form = new FormData();
      form.append('version', '1.0.0');
      form.append('notes', '');
      form.append('file', new Blob([new Uint8Array(image(10, 4))]), 'velho.bin');
      const res = await fetch(`${e2e('baseURL')}/api/firmwares`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toBe('A nova versão não pode ser menor ou igual a atual');
    }

    // Ver Notas: the notes read-only, the file's SHA-256, Voltar.
    await rowWith(page, '1.0.0').getByRole('button', { name: 'Ver Notas' }).click();
    const notes = page.getByRole('dialog', { name: 'Notas da versão' });
    await notes.getByText('Primeira versão: leitura de temperatura a cada minuto.').waitFor();
    expect(await notes.getByRole('textbox', { name: 'Versão', exact: true }).inputValue()).toBe('1.0.0');
    expect(await notes.getByText(sha256(v100)).count()).toBe(1);
    await settle(page);
    await screenshot(page, 'firmware-notes-desktop');

    // Baixar Arquivo (from the modal): the same bytes as uploaded, and the SHA-256 the screen shows.
    const [download] = await Promise.all([page.waitForEvent('download'), notes.getByRole('button', { name: 'Baixar Arquivo' }).click()]);
    const bytes = await readFile(await download.path());
    expect(download.suggestedFilename()).toBe('sentinela-gw-1.0.0.bin');
    expect(bytes.equals(v100)).toBe(true);
    expect(sha256(bytes)).toBe(sha256(v100));
    await notes.getByRole('button', { name: 'Voltar' }).click();
    await notes.waitFor({ state: 'hidden' });

    // The table's own Baixar Arquivo, for the current version.
    const [current] = await Promise.all([page.waitForEvent('download'), rowWith(page, '1.0.1').getByRole('button', { name: 'Baixar Arquivo' }).click()]);
    expect((await readFile(await current.path())).equals(v101)).toBe(true);

    await page.getByPlaceholder('Pesquisar versões').fill('1.0.1');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByPlaceholder('Pesquisar versões').fill('');
    await screenshot(page, 'firmware-list-desktop');
    expect(csp).toEqual([]);
    await context.close();
  });

  it('fits a phone, and says so when the list cannot be loaded', async () => {
    const { context, page, csp } = await signedIn('admin', PHONE);
    await page.goto('/firmware');
    // Each version is a card (ADR 0090): no table scrolled sideways, every action in view and working.
    const version = (text: string) => listEntry(page, 'firmware-card').filter({ hasText: `Versão: ${text}` });
    await version('1.0.1').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await listEntry(page, 'firmware-card').count()).toBe(2);
    for (const entry of await listEntry(page, 'firmware-card').all()) await expectActionsInView(entry, PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'firmware-list-phone');
    const [download] = await Promise.all([page.waitForEvent('download'), version('1.0.0').getByRole('button', { name: 'Baixar Arquivo' }).click()]);
    expect(download.suggestedFilename()).toBe('sentinela-gw-1.0.0.bin');
    await version('1.0.0').getByRole('button', { name: 'Ver Notas' }).click();
    await page.getByRole('dialog', { name: 'Notas da versão' }).getByText('Primeira versão').waitFor();
    await settle(page);
    await screenshot(page, 'firmware-notes-phone');
    await page.getByRole('button', { name: 'Voltar' }).click();
    await page.getByRole('button', { name: 'Nova versão' }).click();
    await page.getByRole('dialog', { name: 'Nova versão' }).waitFor();
    await settle(page);
    await screenshot(page, 'firmware-add-phone');
    await page.getByRole('button', { name: 'Cancelar' }).click();

    await page.route('**/api/firmwares', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', error: 'Servidor ocupado. Tente novamente em instantes.' }) }),
    );
    await page.reload();
    await page.getByText('Servidor ocupado. Tente novamente em instantes.').waitFor();
    await screenshot(page, 'firmware-error-phone');
    expect(csp).toEqual([]);
    await context.close();
  });

  it('is not offered to an enterprise admin, and its route says access denied', async () => {
    const { context, page } = await signedIn('aurora.adm');
    expect(await page.getByTestId('side-menu').getByRole('link', { name: 'Firmwares' }).count()).toBe(0);
    await page.goto('/firmware');
    await page.getByText('Acesso negado').first().waitFor();
    await context.close();
  });
});

const LONG_NAME = 'Gateway da câmara fria número três da doca sul do CD de Contagem (MG)';

describe('gateways (D5, X2)', () => {
  it('an enterprise admin creates a gateway key, sees it once with the instructions, and revokes it', async () => {
    const { context, page, csp } = await signedIn('aurora.adm');
    await openMenu(page, 'Gateways');
    await page.waitForURL('**/gateways');
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Gateways · Sentinela');
    await page.getByRole('table').waitFor();
    await screenshot(page, 'gateways-before-desktop');

    await page.getByRole('button', { name: 'Novo gateway' }).click();
    let dialog = page.getByRole('dialog', { name: 'Novo gateway' });
    await dialog.getByRole('button', { name: 'Criar gateway' }).click();
    await dialog.getByText(/^Informe o nome do gateway\./).waitFor();
    await dialog.getByLabel(/^Nome/).fill('Doca Norte');
    await dialog.getByRole('button', { name: 'Criar gateway' }).click();

    dialog = page.getByRole('dialog', { name: 'Gateway criado' });
    await dialog.getByText('Esta chave não será mostrada novamente.', { exact: false }).waitFor();
    const key = (await dialog.locator('code').first().innerText()).trim();
    expect(key).toMatch(/^sgw_[A-Za-z0-9_-]{32}$/);
    const baseURL = e2e('baseURL');
    // The instructions come from their own call, after the key: polled, not read once.
    await expect.poll(() => dialog.innerText()).toContain(`${baseURL}/api/ingest/readings`);
    await settle(page);
    await screenshot(page, 'gateways-key-http-desktop');
    await dialog.getByRole('tab', { name: 'MQTT' }).click();
    const mqttPort = new URL(e2e('mqttUrl')).port;
    await dialog.getByText(`-p ${mqttPort} -q 1`, { exact: false }).waitFor();
    expect(await dialog.innerText()).toContain('devices/AA:BB:CC:DD:EE:FF/readings');
    await screenshot(page, 'gateways-key-mqtt-desktop');

    // A Ruuvi Gateway (X6): its custom HTTP server URL with the key as Bearer token, and the default MQTT prefix.
    await dialog.getByRole('tab', { name: 'Ruuvi Gateway' }).click();
    const ruuviPanel = dialog.getByRole('tabpanel');
    await ruuviPanel.getByText('Use custom HTTP(S) server').waitFor();
    expect(await ruuviPanel.innerText()).toContain(`${baseURL}/api/ingest/ruuvi`);
    expect(await ruuviPanel.innerText()).toContain('ruuvi/{mac do gateway}/{mac da tag}');
    await settle(page);
    await screenshot(page, 'gateways-key-ruuvi-desktop');
    // Its test command works as shown: the address and the Bearer key are taken (the example tag is not registered).
    const command = (await ruuviPanel.locator('pre').last().innerText()).trim();
    const url = /curl -X POST '([^']+)'/.exec(command)![1]!;
    const authorization = /-H 'Authorization: ([^']+)'/.exec(command)![1]!;
    const body = /-d '(.+)'$/s.exec(command)![1]!;
    expect(authorization).toBe(`Bearer ${key}`);
    const relayed = await fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
    expect(relayed.status).toBe(200);
    expect(await relayed.json()).toMatchObject({ accepted: 0, rejected: [expect.objectContaining({ code: 'unknown_device' })] });

    // The key works as the instructions say.
    const send = () =>
      fetch(`${baseURL}/api/ingest/readings`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:01:01', ts: new Date().toISOString(), temperature: 4.5 }] }),
      });
    expect((await send()).status).toBe(200);

    await dialog.getByRole('button', { name: 'Concluir' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Seen once: the page no longer holds the key, only its prefix.
    const row = rowWith(page, 'Doca Norte');
    await row.waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await row.innerText()).toContain(key.slice(0, 10));
    await page.reload();
    await rowWith(page, 'Doca Norte').waitFor();
    expect(await rowWith(page, 'Doca Norte').innerText()).not.toContain('Nunca');

    await rowWith(page, 'Doca Norte').getByRole('button', { name: 'Revogar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revogar gateway' });
    await settle(page);
    await screenshot(page, 'gateways-revoke-desktop');
    await confirm.getByRole('button', { name: 'Revogar' }).click();
    await rowWith(page, 'Doca Norte').getByText('Revogado').waitFor();
    expect((await send()).status).toBe(401);
    await screenshot(page, 'gateways-after-desktop');
    expect(csp).toEqual([]);
    await context.close();
  });

  it('fits a phone, and an ordinary user has no Gateways entry', async () => {
    const { context, page, csp } = await signedIn('aurora.adm', PHONE);
    await page.goto('/gateways');
    await page.getByTestId('gateway-card').filter({ hasText: 'Doca Norte' }).waitFor();
    await screenshot(page, 'gateways-list-phone');
    await page.getByRole('button', { name: 'Novo gateway' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo gateway' });
    await dialog.getByLabel(/^Nome/).fill(LONG_NAME);
    await dialog.getByRole('button', { name: 'Criar gateway' }).click();
    const created = page.getByRole('dialog', { name: 'Gateway criado' });
    await created.getByText('Copie a chave agora').waitFor();
    await settle(page);
    await screenshot(page, 'gateways-key-phone');
    await created.getByRole('tab', { name: 'Ruuvi Gateway' }).click();
    await created.getByText('Use custom HTTP(S) server').waitFor();
    await settle(page);
    await screenshot(page, 'gateways-key-ruuvi-phone');
    await page.getByRole('button', { name: 'Concluir' }).click();
    // On a phone each gateway is a card: the whole name wraps, and its actions stay on the screen.
    const card = page.getByTestId('gateway-card').filter({ hasText: LONG_NAME });
    await card.waitFor();
    const revoke = await card.getByRole('button', { name: 'Revogar' }).boundingBox();
    expect(revoke!.x + revoke!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'Como conectar um gateway' }).click();
    await page.getByTestId('how-to-connect').getByRole('tab', { name: 'Ruuvi Gateway' }).click();
    await page.getByTestId('how-to-connect').getByText('Use custom HTTP(S) server').waitFor();
    await screenshot(page, 'gateways-list-phone-long-name');
    expect(csp).toEqual([]);
    await context.close();

    // The super admin sees every enterprise's gateways, with their enterprise; a long name is cut, the actions stay.
    const admin = await signedIn('admin');
    await openMenu(admin.page, 'Gateways');
    await rowWith(admin.page, 'Doca Norte').getByText('Aurora Alimentos').waitFor();
    const longRow = rowWith(admin.page, LONG_NAME);
    const cut = await longRow.getByTestId('gateway-name').evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut).toBe(true);
    const button = await longRow.getByRole('button', { name: 'Revogar' }).boundingBox();
    expect(button!.x + button!.width).toBeLessThanOrEqual(DESKTOP.width);
    await longRow.getByTestId('gateway-name').hover();
    expect(await admin.page.getByRole('tooltip').innerText()).toBe(LONG_NAME);
    await screenshot(admin.page, 'gateways-super-admin-desktop');
    expect(admin.csp).toEqual([]);
    await admin.context.close();

    const user = await signedIn('joao.silva');
    expect(await user.page.getByTestId('side-menu').getByRole('link', { name: 'Gateways' }).count()).toBe(0);
    await user.context.close();
  });
});
