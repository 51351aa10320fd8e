import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function menuOf(username: string) {
  const { context, page } = await newPage(browser);
  await login(page, username);
  await page.waitForURL('**/my-devices');
  const menu = page.getByTestId('side-menu');
  await menu.waitFor();
  const labels = (await menu.getByRole('link').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  await screenshot(page, `menu-${username}`);
  await context.close();
  return labels;
}

describe('login and menus per role', () => {
  it('shows the server message on a wrong password', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'admin', 'Errada@123');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Erro!');
    expect(await alert.innerText()).toContain('Usuário ou senha inválidos.');
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-error');
    await context.close();
  });

  it('the super admin sees the admin screens', async () => {
    const labels = await menuOf('admin');
    expect(labels).toContain('Meus Dispositivos');
    expect(labels).toContain('Empresas');
  });

  it('an enterprise admin sees users but not enterprises', async () => {
    const labels = await menuOf('aurora.adm');
    expect(labels).toContain('Meus Dispositivos');
    expect(labels).toContain('Usuários');
    expect(labels).not.toContain('Empresas');
  });

  it('an ordinary user sees neither', async () => {
    const labels = await menuOf('joao.silva');
    expect(labels).toContain('Meus Dispositivos');
    expect(labels).not.toContain('Usuários');
    expect(labels).not.toContain('Empresas');
  });

  it('protected screens send visitors to /login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/my-devices');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('a reload keeps the session; a new tab does not share it', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'vida.adm');
    await page.waitForURL('**/my-devices');
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    expect(new URL(page.url()).pathname).toBe('/my-devices');
    const other = await context.newPage();
    await other.goto('/my-devices');
    await other.waitForURL('**/login');
    await context.close();
  });

  it('after 5 idle minutes the next request ends the session with the documented message', async () => {
    const { context, page } = await newPage(browser);
    await page.clock.install();
    await login(page, 'maria.souza');
    await page.waitForURL('**/my-devices');
    await page.getByText('Caixa Térmica 01').waitFor();
    await page.clock.fastForward('06:00');
    await page.getByRole('button', { name: 'Clique para ver' }).first().click();
    await page.getByText('Sua sessão expirou, por favor efetue login novamente.').waitFor();
    await page.waitForURL('**/login');
    await context.close();
  });

  it('small screens get the top bar menu', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.getByRole('button', { name: /menu/i }).click();
    await page.getByRole('link', { name: 'Usuários' }).waitFor();
    await screenshot(page, 'menu-mobile');
    await context.close();
  });
});
