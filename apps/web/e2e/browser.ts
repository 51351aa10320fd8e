import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
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
 * An entry of a list that turns into cards on phones (ADR 90), whatever the width: a table row on desktop, the card
 * with data-testid `card` on phones (`travel-card`, `report-card`, …). Both carry the same texts and actions.
 */
export function listEntry(page: Page, card: string) {
  return page.getByRole('row').or(page.getByTestId(card));
}

/**
 * Fails unless every button, link and checkbox of `entry` lies inside a `width`-wide viewport: a phone's list puts
 * no action off screen.
 */
export async function expectActionsInView(entry: Locator, width: number) {
  const actions = entry.locator('button, a, input[type=checkbox]');
  const count = await actions.count();
  if (count === 0) throw new Error('no action in the entry');
  for (let i = 0; i < count; i += 1) {
    const action = actions.nth(i);
    const box = await action.boundingBox();
    const name = (await action.getAttribute('aria-label')) ?? (await action.innerText());
    if (!box || box.x < 0 || box.x + box.width > width) throw new Error(`"${name}" lies outside the ${width} px viewport: ${JSON.stringify(box)}`);
  }
}
