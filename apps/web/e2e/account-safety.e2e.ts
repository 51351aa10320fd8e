import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';
import { waitForMail } from './fake-mail-server';
import { signUpCheck } from './human-check';

/**
 * A session alone never takes an account (issue 21.2, ADR 58) and the welcome link of a user made by an administrator
 * fills the e-mail and speaks of a first password (issue 26.2), in Chromium with the local SMTP server's mailbox.
 * Each test signs up an enterprise of its own: the demo users stay as other files expect them.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const PASSWORD = 'Cofre#Azul7134';

async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e('baseURL')}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as T;
}

/** A new enterprise and its owner, signed up through the documented call. */
async function newOwner(tag: string) {
  const stamp = `${tag}${Date.now() % 1_000_000}`;
  const owner = { username: `dono.${stamp}`, email: `dono.${stamp}@example.com` };
  await api('POST', '/api/client', null, {
    name: 'Dona Teresa', ...owner, phone: '(11) 98888-7777', password: PASSWORD, client: { name: `Empório ${stamp}` }, altcha: await signUpCheck(),
  });
  return owner;
}

const codeOf = (text: string) => /^\s+(\d{6})$/m.exec(text)?.[1];

describe('the profile asks for the password, and the old address can take the account back', () => {
  it('a new e-mail needs the current password; the notice’s link restores the account and a new password is chosen', async () => {
    const mailbox = e2e('mailboxURL');
    const owner = await newOwner('p');
    const { context, page } = await newPage(browser);
    const csp = await watchCspViolations(page);
    await login(page, owner.username, PASSWORD);
    await page.waitForURL('**/my-devices');

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Editar Perfil' }).waitFor();
    expect(await page.getByLabel('Senha atual').count()).toBe(0);
    const thiefEmail = `ladrao.${Date.now()}@golpe.example`;
    await page.getByLabel('Email').fill(thiefEmail);
    await page.getByLabel('Senha atual').waitFor();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Para alterar o e-mail ou o usuário, informe a sua senha atual.').waitFor();
    await page.getByLabel('Senha atual').fill('Errada#9431');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('A senha atual está incorreta.').waitFor();
    await page.getByLabel('Senha atual').fill(PASSWORD);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Perfil editado com sucesso. Enviamos um link de confirmação para o novo e-mail.').waitFor();
    // ADR 82: the account keeps its address until the new one's link is opened; the Perfil says what waits.
    await page.getByText(`Aguardando confirmação de novo e-mail: ${thiefEmail}`).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(owner.email);
    await screenshot(page, 'profile-email-changed');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Cancelar alteração' }).waitFor();
    await screenshot(page, 'profile-email-pending-390');
    await page.setViewportSize({ width: 1366, height: 800 });
    const confirmation = await waitForMail(mailbox, thiefEmail, /Confirme o novo e-mail/);
    const confirmLink = /(http\S+\/confirmation\/[A-Za-z0-9_-]+)/.exec(confirmation.text)![1]!;
    const thiefsMailbox = await context.newPage();
    await thiefsMailbox.goto(confirmLink.replace(/^https?:\/\/[^/]+/, ''));
    await thiefsMailbox.getByText('Novo e-mail confirmado! A conta passa a usar este endereço.').waitFor();
    await screenshot(thiefsMailbox, 'email-change-confirmed');
    await thiefsMailbox.close();

    // The old address is told, with the "Não fui eu" link.
    const notice = await waitForMail(mailbox, owner.email, /e-mail da sua conta no Sentinela foi alterado/);
    expect(notice.text).toContain(`foi alterado para “${thiefEmail}”`);
    const link = /(http\S+\/protect-account\/[A-Za-z0-9_-]+)/.exec(notice.text)![1]!;
    const victim = await context.newPage();
    await victim.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await victim.getByRole('heading', { name: 'Proteger minha conta' }).waitFor();
    await screenshot(victim, 'protect-account');
    await victim.getByRole('button', { name: 'Proteger minha conta' }).click();
    await victim.getByRole('heading', { name: 'Conta protegida' }).waitFor();
    await screenshot(victim, 'protect-account-done');

    // The thief's session ended: its next request goes to /login.
    await page.reload();
    await page.waitForURL('**/login');

    await victim.getByRole('link', { name: 'Escolher nova senha' }).click();
    await victim.waitForURL('**/reset-password?email=*');
    await victim.getByText(owner.email).waitFor();
    const secured = await waitForMail(mailbox, owner.email, /Sua conta no Sentinela foi protegida/);
    await victim.getByLabel('Código de recuperação').fill(codeOf(secured.text)!);
    await victim.getByLabel(/^Senha( \*)?$/).fill('Farol#Norte5520');
    await victim.getByLabel('Confirmar Senha').fill('Farol#Norte5520');
    await victim.getByRole('button', { name: 'Alterar' }).click();
    await victim.getByText('Sua senha foi alterada com sucesso').waitFor();
    await login(victim, owner.username, 'Farol#Norte5520');
    await victim.waitForURL('**/my-devices');
    expect(csp).toEqual([]);
    await context.close();
  });
});

describe('a new e-mail waits for its link (issue 21.5, ADR 82)', () => {
  it('Editar usuário shows the address another enterprise has as a pending one, alike, and cancels it', async () => {
    const owner = await newOwner('e');
    const other = await newOwner('o');
    const token = (await api<{ token: { token: string } }>('POST', '/api/authenticate', null, { username: owner.username, password: PASSWORD })).token.token;
    const user = { username: `colega.${Date.now() % 1_000_000}`, email: `colega.${Date.now()}@example.com` };
    const created = await api<{ user: { _id: string } }>('POST', '/api/user/create', token, { name: 'Colega Antigo', ...user, phone: '(11) 97777-6666', profile: { _id: 3 }, available_devices: [], password: 'Trilho#Verde4821' });

    for (const viewport of [{ width: 1366, height: 800 }, { width: 390, height: 844 }]) {
      const { context, page } = await newPage(browser, viewport);
      const csp = await watchCspViolations(page);
      await login(page, owner.username, PASSWORD);
      await page.waitForURL('**/my-devices');
      await page.goto(`/edit-user?id=${created.user._id}`);
      await page.getByRole('heading', { name: 'Editar Usuário' }).waitFor();
      // The other enterprise's owner's address: answered as any free one.
      await page.getByLabel('Email').fill(other.email);
      await page.getByRole('button', { name: 'Salvar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sucesso!' });
      await dialog.getByText('Enviamos um link de confirmação para o novo e-mail.').waitFor();
      await screenshot(page, `edit-user-email-requested-${viewport.width}`);
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.goto(`/edit-user?id=${created.user._id}`);
      await page.getByText(`Aguardando confirmação de novo e-mail: ${other.email}`).waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
      await screenshot(page, `edit-user-email-pending-${viewport.width}`);
      await page.getByRole('button', { name: 'Cancelar alteração' }).click();
      await expect.poll(() => page.getByText('Aguardando confirmação de novo e-mail').count()).toBe(0);
      expect(csp).toEqual([]);
      await context.close();
    }
    // The owner of the address was told that someone tried, without a link.
    const notice = await waitForMail(e2e('mailboxURL'), other.email, /Tentativa de usar este e-mail/);
    expect(notice.text).not.toContain('/confirmation/');
  });
});

describe('the welcome e-mail of a user made by an administrator (issue 26.2)', () => {
  it('opens "Criar senha" with the e-mail filled; the code sets the first password', async () => {
    const mailbox = e2e('mailboxURL');
    const owner = await newOwner('w');
    const token = (await api<{ token: { token: string } }>('POST', '/api/authenticate', null, { username: owner.username, password: PASSWORD })).token.token;
    const user = { username: `novo.${Date.now() % 1_000_000}`, email: `novo.${Date.now()}@example.com` };
    await api('POST', '/api/user/create', token, { name: 'Novo Colega', ...user, phone: '(11) 97777-6666', profile: { _id: 3 }, available_devices: [] });
    const welcome = await waitForMail(mailbox, user.email, /Sua conta no Sentinela foi criada/);
    expect(welcome.text).toMatch(/^Olá!$/m);
    const link = /(http\S+\/reset-password\?\S+)/.exec(welcome.text)![1]!;

    for (const viewport of [{ width: 1366, height: 800 }, { width: 390, height: 844 }]) {
      const { context, page } = await newPage(browser, viewport);
      await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
      await page.getByRole('heading', { name: 'Criar senha' }).waitFor();
      await page.getByText(user.email).waitFor();
      expect(await page.getByLabel('Email').count()).toBe(0);
      await screenshot(page, `first-password-${viewport.width}`);
      if (viewport.width === 390) {
        await context.close();
        continue;
      }
      await page.getByLabel('Código recebido por e-mail').fill(codeOf(welcome.text)!);
      await page.getByLabel(/^Senha( \*)?$/).fill('Senha@123');
      await page.getByLabel('Confirmar Senha').fill('Senha@123');
      await page.getByRole('button', { name: 'Criar senha' }).click();
      // A password on the common list is refused with the server's words; the code is still good.
      await page.getByText('Esta senha está entre as mais usadas').waitFor();
      await page.getByLabel(/^Senha( \*)?$/).fill('Trilho#Verde4821');
      await page.getByLabel('Confirmar Senha').fill('Trilho#Verde4821');
      await page.getByRole('button', { name: 'Criar senha' }).click();
      await page.getByText('Sua senha foi criada com sucesso').waitFor();
      await login(page, user.username, 'Trilho#Verde4821');
      await page.waitForURL('**/my-devices');
      await context.close();
    }
  });
});
