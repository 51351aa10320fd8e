import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations, firstDeviceEntry } from './browser';

// Issue 15 item 5 (ADR 0040): /login and /my-devices load less on their first visit; what moved out of the first load
// (zod, the screens' shared styles, the alarms popover, Socket.IO) must still arrive in time and styled, under the CSP.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Mantine's stylesheet reached the element: a filled button has its theme colour, not the browser's grey. */
async function filledButtonColour(page: Page, name: string) {
  return page.getByRole('button', { name, exact: true }).evaluate((button) => getComputedStyle(button).backgroundColor);
}

describe('first load (issue 15 item 5)', () => {
  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`/login paints styled, validates with the lazily loaded schema and signs in (${label})`, async () => {
      const { context, page } = await newPage(browser, viewport);
      const violations = await watchCspViolations(page);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Entrar' }).waitFor();
      // Teal filled button: Mantine's CSS and the theme's variables are there at first paint.
      expect(await filledButtonColour(page, 'Entrar')).toBe('rgb(18, 184, 134)');
      const scriptsBeforeTyping = scripts.length;
      await screenshot(page, `first-load-login-${label}`);

      // Empty submit: the contract's messages, from the schema loaded on demand.
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByText('Informe o usuário.').waitFor();
      expect(scripts.length).toBeGreaterThan(scriptsBeforeTyping);

      await login(page, 'aurora.adm');
      await page.waitForURL('**/my-devices');
      await page.getByRole('heading', { name: 'Meus Dispositivos' }).waitFor();
      await firstDeviceEntry(page).waitFor();
      // The shell's styles arrived with it: its header is the fixed one of SignedInLayout.module.css (ADR 0048).
      expect(await page.getByRole('banner').evaluate((header) => getComputedStyle(header).position)).toBe('fixed');
      await screenshot(page, `first-load-my-devices-${label}`);
      if (viewport === PHONE) {
        await page.getByRole('button', { name: 'Abrir menu' }).click();
        await page.getByRole('link', { name: 'Usuários' }).waitFor();
      }
      expect(violations).toEqual([]);
      await context.close();
    });
  }

  it('the signed-out phone menu unfolds under the header', async () => {
    const { context, page } = await newPage(browser, PHONE);
    const violations = await watchCspViolations(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await menu.getByRole('link', { name: 'Cadastre-se' }).waitFor();
    await screenshot(page, 'first-load-login-phone-menu');
    await menu.getByRole('link', { name: 'Cadastre-se' }).click();
    await page.waitForURL('**/register');
    expect(await page.getByRole('navigation', { name: 'Menu principal' }).count()).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('a reload of /my-devices with the session paints the shell and the list straight away', async () => {
    const { context, page } = await newPage(browser, DESKTOP);
    const violations = await watchCspViolations(page);
    await login(page, 'joao.silva');
    await page.waitForURL('**/my-devices');
    await page.reload();
    await page.getByRole('heading', { name: 'Meus Dispositivos' }).waitFor();
    await page.getByTestId('side-menu').waitFor();
    // The bell is there before its popover's chunk, and opens the list once that has loaded.
    await page.getByRole('button', { name: /^Alarmes ativos/ }).click();
    await page.getByText('Alarmes ativos', { exact: true }).waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });
});
