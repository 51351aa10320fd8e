import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot } from './browser';
import { waitForMail } from './fake-mail-server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const PASSWORD = 'Cadastro@2026';
const NEW_PASSWORD = 'Recuperada@2026';

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await page.waitForURL('**/login');
}

describe('a visitor signs up, confirms, signs in, and recovers the password (A3, A5, A6)', () => {
  it('goes from /register to a new password through the e-mails of the local SMTP server', async () => {
    const mailbox = inject('mailboxURL');
    const email = `carla.${Date.now()}@example.com`;
    const username = `carla${Date.now() % 100000}`;
    const { context, page } = await newPage(browser);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Cadastre-se' }).click();
    await page.waitForURL('**/register');
    // The client's rules, before any call.
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Você deve escolher uma senha').waitFor();
    await page.getByLabel(/^Nome( \*)?$/).fill('Carla Souza');
    await page.getByLabel('Usuário').fill(username);
    await page.getByLabel('Email').fill('joao.silva@aurora.example');
    await page.getByLabel('Telefone').pressSequentially('11987654321');
    expect(await page.getByLabel('Telefone').inputValue()).toBe('(11) 98765-4321');
    await page.getByLabel('Nome da empresa').fill('Frios Carla');
    await page.getByLabel(/^Senha( \*)?$/).fill(PASSWORD);
    await page.getByLabel('Confirmar Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Email já cadastrado no sistema.').waitFor();
    await screenshot(page, 'register-email-taken');

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Cadastro concluído com sucesso!').waitFor();
    await screenshot(page, 'register-done');

    const confirmation = await waitForMail(mailbox, email, /Confirme seu e-mail/);
    const link = /https?:\/\/\S+\/confirmation\/[A-Za-z0-9_-]+/.exec(confirmation.text)?.[0];
    expect(link).toBeTruthy();
    await page.goto(new URL(link!).pathname);
    await page.getByText('E-mail confirmado com sucesso!').waitFor();
    await screenshot(page, 'confirmation-ok');
    // The link is single use.
    await page.reload();
    await page.getByText('usuário não encontrado').waitFor();

    await page.getByRole('link', { name: 'Ir para o Login' }).click();
    await login(page, username, PASSWORD);
    await page.waitForURL('**/my-devices');
    await signOut(page);

    await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('você receberá em instantes um código').waitFor();
    await screenshot(page, 'forgot-password-sent');
    await page.getByRole('button', { name: 'Alterar senha' }).click();
    await page.waitForURL('**/reset-password');

    const recovery = await waitForMail(mailbox, email, /recuperação de senha/);
    const code = /^\s+(\d{6})$/m.exec(recovery.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '000001' : '000000';
    await page.getByLabel('Código de recuperação').fill(wrong);
    await page.getByLabel(/^Senha( \*)?$/).fill(NEW_PASSWORD);
    await page.getByLabel('Confirmar Senha').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Alterar' }).click();
    await page.getByText('Código inválido ou expirado').waitFor();
    await page.getByLabel('Código de recuperação').fill(code!);
    await page.getByRole('button', { name: 'Alterar' }).click();
    await page.getByText('Sua senha foi alterada com sucesso').waitFor();
    await screenshot(page, 'reset-password-done');
    await page.getByRole('link', { name: 'Login' }).click();

    await login(page, username, PASSWORD);
    await page.getByText('Usuário ou senha inválidos.').waitFor();
    await login(page, username, NEW_PASSWORD);
    await page.waitForURL('**/my-devices');
    await context.close();
  });

  it('the account screens fit a small screen', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    for (const [path, name] of [['/register', 'register-mobile'], ['/forgot-password', 'forgot-password-mobile'], ['/reset-password', 'reset-password-mobile']] as const) {
      await page.goto(path);
      await page.getByRole('heading').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await screenshot(page, name);
    }
    await context.close();
  });
});
