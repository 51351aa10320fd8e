import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const PHONE = { width: 390, height: 844 };

async function openSettings(page: Page, username: string) {
  await login(page, username);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.goto('/settings');
  await page.getByText('Por onde deseja receber notificações?').waitFor();
}

describe('Configurações: Lembretes e escalonamento (issue 11 item 4)', () => {
  it('an enterprise administrator saves the minutes, sees them after a reload, and is told what is out of bounds', async () => {
    const { context, page } = await newPage(browser);
    const csp = await watchCspViolations(page);
    await openSettings(page, 'vida.adm');
    await page.getByRole('heading', { name: 'Lembretes e escalonamento' }).waitFor();
    const reminder = page.getByLabel('Lembrete a cada (minutos)');
    const escalation = page.getByLabel('Escalonar para os administradores após (minutos)');
    // Configurações has other sections with their own Salvar (Retenção de dados): this one's is in its form.
    const save = page.locator('form').filter({ hasText: 'Lembrete a cada (minutos)' }).getByRole('button', { name: 'Salvar' });
    await expect.poll(() => reminder.inputValue()).toBe('30');
    expect(await escalation.inputValue()).toBe('60');

    await reminder.fill('2');
    await save.click();
    await page.getByText('O intervalo dos lembretes deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.').waitFor();
    await screenshot(page, 'alarm-escalation-invalid-desktop');

    await reminder.fill('15');
    await escalation.fill('45');
    await save.click();
    await page.getByText('Lembretes e escalonamento salvos.').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Lembrete a cada (minutos)').inputValue()).toBe('15');
    expect(await page.getByLabel('Escalonar para os administradores após (minutos)').inputValue()).toBe('45');
    await screenshot(page, 'alarm-escalation-desktop');
    expect(csp).toEqual([]);
    await context.close();

    // On a phone, with the reminders turned off.
    const phone = await newPage(browser, PHONE);
    await openSettings(phone.page, 'vida.adm');
    await expect.poll(() => phone.page.getByLabel('Lembrete a cada (minutos)').inputValue()).toBe('15');
    await phone.page.getByLabel('Lembrete a cada (minutos)').fill('0');
    await phone.page.locator('form').filter({ hasText: 'Lembrete a cada (minutos)' }).getByRole('button', { name: 'Salvar' }).click();
    await phone.page.getByText('Lembretes e escalonamento salvos.').waitFor();
    await screenshot(phone.page, 'alarm-escalation-phone');
    await phone.context.close();

    // The settings could not be read: said, not hidden.
    const failing = await newPage(browser, PHONE);
    await failing.page.route('**/api/enterprise/alarm-escalation', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, error: 'Erro interno do servidor.' }) }));
    await openSettings(failing.page, 'vida.adm');
    await failing.page.getByRole('heading', { name: 'Lembretes e escalonamento' }).waitFor();
    await failing.page.getByText('Erro!').waitFor();
    await screenshot(failing.page, 'alarm-escalation-error-phone');
    await failing.context.close();
  });

  it('a user who is not an administrator does not see the section', async () => {
    const { context, page } = await newPage(browser);
    await openSettings(page, 'maria.souza');
    await page.getByRole('switch', { name: 'E-mail' }).waitFor();
    expect(await page.getByText('Lembretes e escalonamento').count()).toBe(0);
    await context.close();
  });
});
