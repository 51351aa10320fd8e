import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const CHAT = 7_000_123;
const PHONE = { width: 390, height: 844 };

interface BotCall {
  method: string;
  params: Record<string, unknown>;
}

async function botCalls(): Promise<BotCall[]> {
  return (await (await fetch(`${inject('telegramURL')}/_control/calls`)).json()) as BotCall[];
}

/** Sends /start to the bot from the chat, as Telegram would, and returns the link it answers with. */
async function startChat(chatId: number): Promise<URL> {
  const before = (await botCalls()).length;
  await fetch(`${inject('telegramURL')}/_control/send-text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatId, text: '/start' }) });
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const answer = (await botCalls()).slice(before).find((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === chatId);
        link = answer && /http\S+\/login\?token=\S+/.exec(String(answer.params.text))?.[0];
        return Boolean(link);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return new URL(link!);
}

describe('Configurações and the Telegram link (A10, A12)', () => {
  it('turns e-mail on, shows why Telegram is off, links the chat through /telegram/{chatId}/login, then unlinks', async () => {
    const { context, page } = await newPage(browser);
    const csp = await watchCspViolations(page);
    await login(page, 'maria.souza');
    await page.waitForURL('**/my-devices');
    await page.getByRole('link', { name: 'Configurações' }).first().click();
    await page.waitForURL('**/settings');
    expect(await page.title()).toContain('Configurações');
    await page.getByText('Por onde deseja receber notificações?').waitFor();

    const email = page.getByRole('switch', { name: 'E-mail' });
    const telegram = page.getByRole('switch', { name: 'Telegram' });
    await email.waitFor();
    expect(await email.isChecked()).toBe(false);
    expect(await telegram.isDisabled()).toBe(true);
    await page.getByText('Vincule sua conta do Telegram').waitFor();
    expect(await page.getByRole('link', { name: 'Abrir o bot no Telegram' }).getAttribute('href')).toBe('https://t.me/sentinela_teste_bot');
    await page.getByText('O envio por SMS não está configurado neste servidor').waitFor();
    expect(await page.getByRole('switch', { name: 'SMS' }).isDisabled()).toBe(true);
    await email.click({ force: true });
    await expect.poll(() => email.isChecked()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'E-mail' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'settings-phone');

    // The bot's link, opened in another browser (the phone where Telegram runs), signed out.
    const link = await startChat(CHAT);
    expect(link.pathname).toBe(`/telegram/${CHAT}/login`);
    const phone = await newPage(browser, PHONE);
    const phoneCsp = await watchCspViolations(phone.page);
    await phone.page.goto(link.pathname + link.search);
    await phone.page.getByRole('heading', { name: 'Vincular contas' }).waitFor();
    expect(await phone.page.title()).toContain('Vincular contas');
    await screenshot(phone.page, 'telegram-link-phone');
    await phone.page.getByLabel('Usuário').fill('maria.souza');
    await phone.page.getByLabel('Senha', { exact: true }).fill('senha-errada');
    await phone.page.getByRole('button', { name: 'Vincular' }).click();
    await phone.page.getByRole('alert').filter({ hasText: 'Erro!' }).waitFor();
    await screenshot(phone.page, 'telegram-link-wrong-password-phone');
    await phone.page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD);
    await phone.page.getByRole('button', { name: 'Vincular' }).click();
    await phone.page.getByText('Vinculado com sucesso!').waitFor();
    await screenshot(phone.page, 'telegram-linked-phone');
    await expect
      .poll(async () => (await botCalls()).some((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === CHAT && String(c.params.text).startsWith('Conta vinculada: Maria Souza')), { timeout: 30_000 })
      .toBe(true);

    // The same link again (spent), and a link without its token: refused, with what to do.
    await phone.page.goto(link.pathname + link.search);
    await phone.page.getByLabel('Usuário').fill('maria.souza');
    await phone.page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD);
    await phone.page.getByRole('button', { name: 'Vincular' }).click();
    await phone.page.getByText('Link de vinculação inválido ou expirado').waitFor();
    await phone.page.goto(`/telegram/${CHAT}/login`);
    await phone.page.getByText('Envie /start ao bot no Telegram').waitFor();
    await screenshot(phone.page, 'telegram-link-invalid-phone');
    expect(phoneCsp).toEqual([]);
    await phone.context.close();

    // /settings: Telegram linked and on; "Desvincular" turns it off again.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await page.getByText('Telegram vinculado').waitFor();
    await expect.poll(() => page.getByRole('switch', { name: 'Telegram' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-telegram-linked-desktop');
    await page.getByRole('button', { name: 'Desvincular' }).click();
    await page.getByText('Telegram desvinculado.').waitFor();
    await expect.poll(() => page.getByRole('switch', { name: 'Telegram' }).isChecked()).toBe(false);
    await page.getByText('Vincule sua conta do Telegram').waitFor();
    expect(csp).toEqual([]);
    await context.close();
  });
});
