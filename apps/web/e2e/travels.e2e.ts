import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations, listEntry } from './browser';
import { e2e } from './environment';

/** Issue 4: /directions with live device cards and map, and the public /localizator, in Chromium. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const CODE = 'AUR7K2M9QX';
const MAC = 'C3:00:00:00:01:01';
const DEVICE = 'Baú Caminhão 01';
const PHONE = { width: 390, height: 844 };

async function requestsOf(url: string): Promise<number> {
  const answer = (await (await fetch(`${url}/__stats`)).json()) as { requests: number };
  return answer.requests;
}

/** A reading with a position, as a gateway sends it (D5). */
async function ingest(reading: { temperature: number; humidity: number; battery: number; lat: number; lng: number }) {
  const response = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'ApiKey demo-gateway-key' },
    body: JSON.stringify({ readings: [{ mac: MAC, ts: new Date().toISOString(), ...reading }] }),
  });
  expect(response.status).toBeLessThan(300);
  const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(answer).toMatchObject({ accepted: 1, rejected: [] });
}

const card = (page: Page) => page.locator(`[data-testid="device-card"][data-mac="${MAC}"]`);
const marker = (page: Page) => page.locator('[data-marker="last-position"]');

async function markerPosition(page: Page): Promise<[number, number]> {
  const element = marker(page);
  return [Number(await element.getAttribute('data-lat')), Number(await element.getAttribute('data-lng'))];
}

/** Distance in pixels between the marker and the centre of the map (0 when the map is centred on it). */
async function markerOffsetFromCentre(page: Page): Promise<number> {
  const map = await page.locator('[data-testid="travel-map"] .leaflet-container').boundingBox();
  const dot = await marker(page).boundingBox();
  if (!map || !dot) return Infinity;
  return Math.hypot(map.x + map.width / 2 - (dot.x + dot.width / 2), map.y + map.height / 2 - (dot.y + dot.height / 2));
}

async function openTravels(page: Page) {
  await login(page, 'aurora.adm');
  await page.waitForURL('**/my-devices');
  await page.getByTestId('side-menu').getByRole('link', { name: 'Viagens' }).click();
  await page.waitForURL('**/directions#routes');
  await listEntry(page, 'travel-card').filter({ hasText: 'João Silva' }).first().waitFor();
}

async function openDevicesOf(page: Page, code: string) {
  await page.getByLabel('Pesquisar viagens').fill(code);
  const row = listEntry(page, 'travel-card').filter({ has: page.getByRole('button', { name: 'Dispositivos' }) });
  await expect.poll(() => row.count()).toBe(1);
  await row.getByRole('button', { name: 'Dispositivos' }).click();
  await page.waitForURL(/\/directions\?travel=[^#]+#devices$/);
}

describe('travels (T1–T7, T9)', () => {
  it('lists the travels, opens a travel\'s cards, and shows a reading and a position live', async () => {
    const tilesBefore = await requestsOf(e2e('tileURL'));
    const { context, page } = await newPage(browser);
    // The server's Content-Security-Policy (ADR 0014) must let the whole screen work: map tiles, routing, Socket.IO.
    const cspViolations = await watchCspViolations(page);
    await openTravels(page);

    // Lista de viagens: the enterprise's travels only, with status, responsible and destination.
    const tabs = page.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Lista de viagens', 'Dispositivos', 'Histórico']);
    expect(await page.getByRole('tab', { name: 'Dispositivos' }).isDisabled()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Histórico' }).isDisabled()).toBe(true);
    // textContent: badges are shown in capitals.
    const table = (await page.locator('tbody').textContent()) ?? '';
    expect(table).toContain('Em andamento');
    expect(table).toContain('Av. Brasil, 500 - Caju, Rio de Janeiro - RJ');
    expect(table).not.toContain('Vida Farma');
    // No travel yet: Brasília and the note.
    expect(await page.getByTestId('travel-map').innerText()).toContain('Trajeto não selecionado');
    // Leaflet's controls speak pt-BR (its defaults are "Zoom in", "Zoom out", "A JavaScript library…").
    const map = page.getByTestId('travel-map');
    expect(await map.locator('.leaflet-control-zoom-in').getAttribute('title')).toBe('Aproximar');
    expect(await map.locator('.leaflet-control-zoom-out').getAttribute('title')).toBe('Afastar');
    expect(await map.locator('.leaflet-control-attribution a[href="https://leafletjs.com"]').getAttribute('title')).toBe(
      'Uma biblioteca JavaScript para mapas interativos',
    );
    expect(await map.innerHTML()).not.toMatch(/Zoom in|Zoom out|JavaScript library/);
    await screenshot(page, 'travels-routes');

    // An expanded row shows origin, destination, code and dates.
    await page.getByLabel('Pesquisar viagens').fill(CODE);
    await page.getByRole('button', { name: 'Expandir detalhes' }).click();
    const details = await page.getByTestId('travel-details').innerText();
    expect(details).toContain(CODE);
    expect(details).toContain('Av. Paulista, 1000');
    expect(details).toMatch(/Iniciada em\s+\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/);
    await screenshot(page, 'travels-routes-expanded');

    // "Finalizar" asks first; its confirmation is a chunk loaded on the first click (ADR 0086), and opens on it.
    await page.getByRole('button', { name: 'Finalizar', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Finalizar viagem' });
    await confirm.getByText(`Finalizar a viagem ${CODE}? Uma viagem finalizada não pode ser retomada.`).waitFor();
    await screenshot(page, 'travels-finish-confirm');
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'hidden' });

    await openDevicesOf(page, CODE);
    await card(page).waitFor();
    expect(await card(page).innerText()).toContain(DEVICE);
    // Devices tab: the routes tab is disabled while here; history waits for a device.
    expect(await page.getByRole('tab', { name: 'Lista de viagens' }).isDisabled()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Histórico' }).isDisabled()).toBe(true);
    await page.locator('[data-testid="live-status"][data-status="live"]').waitFor();
    await marker(page).waitFor();
    // The planned route came from the (fake) routing server, the tiles from the (fake) tile server.
    await page.locator('[data-testid="travel-map"][data-route="road"]').waitFor();
    await expect.poll(() => requestsOf(e2e('tileURL'))).toBeGreaterThan(tilesBefore);
    await screenshot(page, 'travels-devices');

    // A reading and a position arrive through ingestion: the card and the marker move without a reload.
    const [lat, lng] = await markerPosition(page);
    const next = { lat: Number((lat + 0.0123).toFixed(6)), lng: Number((lng + 0.0234).toFixed(6)) };
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
    await ingest({ temperature: 23.45, humidity: 61.2, battery: 77, ...next });

    await expect.poll(() => card(page).getByTestId('card-temperature').innerText(), { timeout: 10_000 }).toContain('23,45 °C');
    expect(await card(page).getAttribute('data-state')).toBe('hot');
    expect(await card(page).getByTestId('card-humidity').innerText()).toContain('61,20 %');
    expect(await card(page).getByTestId('card-battery').getAttribute('data-level')).toBe('high');
    await expect.poll(() => markerPosition(page), { timeout: 10_000 }).toEqual([next.lat, next.lng]);
    // The map centres on the new position.
    await expect.poll(() => markerOffsetFromCentre(page), { timeout: 5_000 }).toBeLessThan(12);
    expect(navigations).toEqual([]);
    await screenshot(page, 'travels-devices-live');

    // Gráficos: temperature and humidity charts with the maximum and minimum.
    await card(page).getByRole('button', { name: `Ações de ${DEVICE}` }).click();
    await page.getByRole('menuitem', { name: 'Gráficos' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByTestId('graph-stats').waitFor();
    expect(await modal.getByTestId('graph-stats').innerText()).toContain('Máxima');
    await modal.locator('canvas').first().waitFor();
    await screenshot(page, 'travels-graph-temperature');
    await modal.getByRole('tab', { name: 'Umidade' }).click();
    await modal.locator('canvas').first().waitFor();
    await screenshot(page, 'travels-graph-humidity');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });

    // Histórico: the readings of the travel, newest first; Localização centres the map on one.
    await card(page).getByRole('button', { name: `Ações de ${DEVICE}` }).click();
    await page.getByRole('menuitem', { name: 'Histórico' }).click();
    await page.waitForURL(/\/directions\?travel=[^#]+&device=[^#]+#history$/);
    const firstRow = page.getByTestId('history-panel').locator('tbody tr').first();
    await expect.poll(() => firstRow.innerText()).toContain('23,45 °C');
    expect(await firstRow.innerText()).toMatch(/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/);
    await page.getByTestId('history-panel').locator('tbody tr').nth(3).getByRole('button', { name: 'Localização' }).click();
    await page.locator('[data-marker="reading"]').waitFor();
    await screenshot(page, 'travels-history');

    // A reload on #history keeps the travel and the device: they are in the URL, like a link shared from here (T1).
    const historyUrl = page.url();
    await page.reload();
    await expect.poll(() => page.getByTestId('history-panel').locator('tbody tr').first().innerText()).toContain('23,45 °C');
    expect(page.url()).toBe(historyUrl);
    // The link opened by a colleague on a phone, after signing in.
    {
      const phone = await newPage(browser, PHONE);
      await login(phone.page, 'aurora.adm');
      await phone.page.waitForURL('**/my-devices');
      await phone.page.goto(historyUrl);
      await expect.poll(() => phone.page.getByTestId('history-panel').locator('tbody tr').first().innerText()).toContain('23,45 °C');
      expect(await phone.page.getByRole('tab', { name: 'Histórico' }).getAttribute('aria-selected')).toBe('true');
      await screenshot(phone.page, 'travels-history-shared-link-phone');
      await phone.context.close();
    }

    // Configurações: the device's name and limits within the travel.
    await page.getByRole('tab', { name: 'Dispositivos' }).click();
    await card(page).getByRole('button', { name: `Ações de ${DEVICE}` }).click();
    await page.getByRole('menuitem', { name: 'Configurações' }).click();
    const settings = page.getByRole('dialog');
    await settings.getByLabel('Temperatura máxima (°C)').fill('30');
    await screenshot(page, 'travels-device-settings');
    await settings.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Dispositivo foi atualizado com sucesso').waitFor();
    // 23,45 is now below the new maximum: normal.
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('normal');
    expect(await card(page).innerText()).toContain('30,00 °C');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('shows the route of a travel in a modal, creates a travel with the form, and fits a phone', async () => {
    const routesBefore = await requestsOf(e2e('routingURL'));
    const { context, page } = await newPage(browser);
    await openTravels(page);

    await page.getByLabel('Pesquisar viagens').fill(CODE);
    await page.getByRole('button', { name: 'Trajeto' }).click();
    const modal = page.getByRole('dialog');
    await modal.locator('[data-testid="travel-map"][data-route="road"]').waitFor();
    await modal.locator('.leaflet-overlay-pane path').first().waitFor();
    expect(await requestsOf(e2e('routingURL'))).toBeGreaterThanOrEqual(routesBefore);
    await screenshot(page, 'travels-route-modal');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });

    // Nova viagem: a malformed form gets pt-BR messages, a complete one creates the travel.
    await page.getByRole('button', { name: 'Nova viagem' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('button', { name: 'Cadastrar viagem' }).click();
    await form.getByText('Informe o endereço.').first().waitFor();
    expect(await form.innerText()).toContain('Informe a latitude.');
    expect(await form.innerText()).toContain('Escolha ao menos um dispositivo.');
    await screenshot(page, 'travels-new-errors');

    await form.getByLabel('Endereço de origem').fill('Rua da Consolação, 100 - São Paulo - SP');
    await form.getByLabel('Endereço de destino').fill('Av. Atlântica, 200 - Rio de Janeiro - RJ');
    // Origin by typing, destination by a click on the map.
    await form.getByLabel('Latitude').first().fill('-23,55');
    await form.getByLabel('Longitude').first().fill('-46,65');
    const map = form.getByRole('region', { name: 'Mapa para marcar origem e destino' });
    await form.locator('.mantine-SegmentedControl-label', { hasText: 'Destino' }).click();
    await map.click({ position: { x: 120, y: 80 } });
    await expect.poll(() => form.getByLabel('Latitude').nth(1).inputValue()).not.toBe('');
    await form.getByLabel('Dispositivos').click();
    await page.getByRole('option', { name: /Baú Caminhão 02/ }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'travels-new-filled');
    await form.getByRole('button', { name: 'Cadastrar viagem' }).click();
    const created = page.getByText(/Viagem cadastrada com sucesso! Código do localizador: [A-Z0-9]{10,}/);
    await created.waitFor();
    const code = /Código do localizador: ([A-Z0-9]+)/.exec(await created.innerText())![1]!;

    // The new travel is listed, not started; Iniciar, then Pausar are its next steps.
    await page.getByLabel('Pesquisar viagens').fill(code);
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Trajeto' }) });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Não iniciada');
    await row.getByRole('button', { name: 'Iniciar' }).click();
    await expect.poll(() => row.textContent()).toContain('Em andamento');
    expect(await row.getByRole('button', { name: 'Pausar' }).count()).toBe(1);
    await row.getByRole('button', { name: 'Pausar' }).click();
    await expect.poll(() => row.textContent()).toContain('Pausada');
    await row.getByRole('button', { name: 'Retomar' }).waitFor();

    // The same screens on a phone (one sign-in less: the login limit counts every test of the run).
    await page.setViewportSize(PHONE);
    await page.goto('/directions');
    await page.waitForURL('**/directions#routes');
    // Cards, not a table scrolled sideways: every action of a travel is in view without scrolling.
    const phoneCard = page.getByTestId('travel-card').filter({ hasText: code });
    await phoneCard.waitFor();
    expect(await page.locator('table').count()).toBe(0);
    for (const name of ['Trajeto', 'Dispositivos', 'Relatórios', 'Editar', 'Retomar', 'Finalizar']) {
      const box = (await phoneCard.getByRole('button', { name }).boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= PHONE.width, name).toBe(true);
    }
    expect(await phoneCard.getByTestId('travel-status').textContent()).toBe('Pausada');
    await screenshot(page, 'travels-routes-phone');
    await openDevicesOf(page, CODE);
    await card(page).waitFor();
    await marker(page).waitFor();
    // One card per row.
    const width = await card(page).evaluate((element) => element.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(300);
    await screenshot(page, 'travels-devices-phone');
    await page.getByRole('button', { name: 'Nova viagem' }).click();
    await page.getByRole('dialog').getByLabel('Endereço de origem').waitFor();
    await screenshot(page, 'travels-new-phone');
    await context.close();
  });
});

describe('a live screen stays live (issue 11)', () => {
  it('a travel left on screen for 6 minutes keeps its session and its live updates', async () => {
    const { context, page } = await newPage(browser);
    await page.clock.install();
    const presence: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/session/presence') && presence.push(request.method()));
    await openTravels(page);
    await openDevicesOf(page, CODE);
    await card(page).waitFor();
    await page.locator('[data-testid="live-status"][data-status="live"]').waitFor();

    // Six minutes with nobody touching the page: more than the 5-minute window.
    await page.clock.runFor('06:00');
    await expect.poll(() => presence.length).toBeGreaterThanOrEqual(5);
    expect(new Set(presence)).toEqual(new Set(['POST']));
    expect(new URL(page.url()).pathname).toBe('/directions');
    await page.locator('[data-testid="live-status"][data-status="live"]').waitFor();

    // Still live: a reading arrives on the card, and the next call the user makes is answered, not sent to /login.
    await ingest({ temperature: 7.25, humidity: 55.5, battery: 90, ...(await markerPosition(page).then(([lat, lng]) => ({ lat, lng }))) });
    await expect.poll(() => card(page).getByTestId('card-temperature').innerText(), { timeout: 10_000 }).toContain('7,25 °C');
    await card(page).getByRole('button', { name: `Ações de ${DEVICE}` }).click();
    await page.getByRole('menuitem', { name: 'Gráficos' }).click();
    await page.getByRole('dialog').getByTestId('graph-stats').waitFor();
    expect(await page.getByText('Sua sessão expirou, por favor efetue login novamente.').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/directions');
    await context.close();
  });
});

describe('localizator (T5)', () => {
  it('a visitor follows a travel by its code: map and devices, no Registros', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Rastrear viagem' }).click();
    await page.waitForURL('**/localizator');
    expect(await page.getByTestId('travel-map').innerText()).toContain('Trajeto não selecionado');
    await screenshot(page, 'localizator-empty');

    await page.getByPlaceholder('Digite o código do localizador').fill(CODE);
    await page.getByRole('button', { name: 'Procurar' }).click();
    await page.getByTestId('travel-summary').first().waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Mapa', 'Dispositivos']);
    const summary = (await page.getByTestId('travel-summary').first().textContent()) ?? '';
    expect(summary).toContain('Em andamento');
    expect(summary).toContain('Av. Paulista, 1000');
    // The public view leaves out the responsible person.
    expect(summary).not.toContain('João Silva');
    await marker(page).waitFor();
    await page.locator('[data-testid="travel-map"][data-route="road"]').waitFor();
    await page.locator('[data-testid="live-status"][data-status="live"]').waitFor();
    await screenshot(page, 'localizator-map');

    // Live for visitors too.
    const next = { lat: -22.95, lng: -44.1 };
    await ingest({ temperature: 5.5, humidity: 50, battery: 100, ...next });
    await expect.poll(() => markerPosition(page), { timeout: 10_000 }).toEqual([next.lat, next.lng]);

    await page.getByRole('tab', { name: 'Dispositivos' }).click();
    await card(page).waitFor();
    await expect.poll(() => card(page).getByTestId('card-temperature').innerText()).toContain('5,50 °C');
    expect(await card(page).getByTestId('card-battery').getAttribute('data-level')).toBe('full');
    // A visitor's menu shows what the code lets them see (ADR 72): the charts, never Registros nor Configurações.
    await card(page).getByRole('button', { name: /^Ações de / }).click();
    await page.getByRole('menuitem', { name: 'Gráficos' }).waitFor();
    expect((await page.getByRole('menuitem').allInnerTexts()).map((t) => t.trim())).toEqual(['Gráficos']);
    await page.keyboard.press('Escape');
    await screenshot(page, 'localizator-devices');

    await page.setViewportSize(PHONE);
    await screenshot(page, 'localizator-devices-phone');
    await page.getByRole('tab', { name: 'Mapa' }).click();
    await marker(page).waitFor();
    await screenshot(page, 'localizator-map-phone');
    await context.close();
  });

  it('a wrong code gets the server\'s message; a finished travel\'s code still shows it until the link expires', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/localizator');
    await page.getByRole('button', { name: 'Procurar' }).click();
    await page.getByText('Informe o código do localizador.').waitFor();

    await page.getByPlaceholder('Digite o código do localizador').fill('ZZZZZZZZZZ');
    await page.getByRole('button', { name: 'Procurar' }).click();
    const error = page.getByTestId('localizator-error');
    await expect.poll(() => error.innerText()).toContain('Viagem não encontrada para este código.');
    expect(await error.innerText()).toContain('Erro!');
    await screenshot(page, 'localizator-wrong-code');

    // Finished about 87 hours ago: its link lasts TRAVEL_LINK_DAYS_AFTER_END (7) days after the end (ADR 36).
    await page.getByPlaceholder('Digite o código do localizador').fill('AUR9P5D2LC');
    await page.getByRole('button', { name: 'Procurar' }).click();
    await expect.poll(() => page.getByTestId('localizator-link-note').innerText()).toContain('Link válido até');
    expect(await error.count()).toBe(0);
    await context.close();
  });

  it('a signed-in user also gets Registros, after choosing Histórico on a device', async () => {
    const { context, page } = await newPage(browser);
    // The travel's responsible user (an ordinary profile).
    await login(page, 'joao.silva');
    await page.waitForURL('**/my-devices');
    await page.getByTestId('side-menu').getByRole('link', { name: 'Rastrear viagem' }).click();
    await page.getByPlaceholder('Digite o código do localizador').fill(CODE);
    await page.getByRole('button', { name: 'Procurar' }).click();
    await page.getByTestId('travel-summary').first().waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Mapa', 'Dispositivos', 'Registros']);
    expect(await page.getByRole('tab', { name: 'Registros' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Dispositivos' }).click();
    await card(page).getByRole('button', { name: `Ações de ${DEVICE}` }).click();
    expect(await page.getByRole('menuitem', { name: 'Configurações' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Histórico' }).click();
    await page.getByTestId('history-panel').locator('tbody tr').first().waitFor();
    expect(await page.getByRole('tab', { name: 'Registros' }).getAttribute('aria-selected')).toBe('true');
    // No Localização on the localizator.
    expect(await page.getByRole('button', { name: 'Localização' }).count()).toBe(0);
    await screenshot(page, 'localizator-records');
    await context.close();
  });
});
