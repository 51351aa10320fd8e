import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { e2e } from './environment';

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--lang=pt-BR',
];

export const DEMO_PASSWORD = 'Sentinela@2026';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: FLAGS });
}

export async function newPage(browser: Browser, viewport = { width: 1366, height: 800 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: e2e('baseURL'), viewport, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const page = await context.newPage();
  return { context, page };
}

/**
 * The Content-Security-Policy violations the page reports from now on (ADR 0014): the server's policy must let every
 * screen work, so a spec checks this list is empty after exercising one.
 */
export async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('CSP violation')) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.log(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  return violations;
}

export async function login(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Usuário').fill(username);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Saves a screenshot under .tmp/screenshots for a person to look at (never compared automatically). */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `${import.meta.dirname}/../../../.tmp/screenshots/${name}.png`, fullPage: true });
}

/**
 * A device of Meus Dispositivos / Dispositivos, whatever the width: a table row on desktop, a card on phones
 * (ADR 0049). Both carry the same texts, the same "Histórico" link and the same silence badge.
 */
export function deviceEntry(page: Page, name: string) {
  return page.getByRole('row').or(page.getByTestId('device-row-card')).filter({ hasText: name });
}

/** The first device entry of the list (row 0 of a table is its header). */
export function firstDeviceEntry(page: Page) {
  return page.locator('tbody tr').or(page.getByTestId('device-row-card')).first();
}

/**
 * A travel of the Lista de viagens, whatever the width: a table row on desktop, a card on phones. Both carry the
 * same texts and actions.
 */
export function travelEntry(page: Page) {
  return page.getByRole('row').or(page.getByTestId('travel-card'));
}

/** An alarm of a device's Alarmes tab, whatever the width: a table row on desktop, a card on phones. */
export function alarmEntry(page: Page) {
  return page.getByRole('row').or(page.getByTestId('alarm-card'));
}
