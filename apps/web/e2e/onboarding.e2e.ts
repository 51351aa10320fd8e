import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { waitForMail } from './fake-mail-server';
import { signUpCheck } from './human-check';
import { e2e } from './environment';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const SHOTS = process.env.SHOTS_DIR;

/** Desktop and phone screenshots of what the page shows now (and into SHOTS_DIR when a person asked for them). */
async function shots(page: Page, name: string, only?: Locator) {
  const desktop = page.viewportSize();
  const take = async (suffix: string) => {
    await screenshot(page, `${name}-${suffix}`);
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, `${name}-${suffix}.png`);
    // A long page (the landing page) is looked at by the part that changed.
    if (only) await only.screenshot({ path: file });
    else await page.screenshot({ path: file, fullPage: true });
  };
  await take('desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await take('phone');
  if (desktop) await page.setViewportSize(desktop);
}

async function query<T>(text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2e('databaseUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('contact form (A14)', () => {
  it('a visitor solves the check in the browser and the message reaches the team by e-mail', async () => {
    const { context, page } = await newPage(browser);
    const cspViolations = await watchCspViolations(page);
    const marker = `Quero 30 sensores ${Date.now()}`;
    await page.goto('/#contato');
    const form = page.getByRole('form', { name: 'Formulário de contato' });
    await form.waitFor();
    const send = form.getByRole('button', { name: 'Enviar' });
    expect(await send.isDisabled()).toBe(true);
    await form.getByLabel(/^Nome/).fill('Rita Visitante');
    await form.getByLabel(/^Email/).fill('rita@example.com');
    await form.getByLabel(/^Telefone/).pressSequentially('21998765432');
    expect(await form.getByLabel(/^Telefone/).inputValue()).toBe('(21) 99876-5432');
    await form.getByLabel(/^Mensagem/).fill(marker);
    await form.scrollIntoViewIfNeeded();
    await shots(page, 'contact-unverified', form);
    // The widget solves the server's challenge for real, in its worker.
    await form.getByText('Eu não sou um robô').click();
    await form.getByText('Verificado').waitFor({ timeout: 60_000 });
    expect(await send.isDisabled()).toBe(false);
    await send.click();
    await page.getByText('Mensagem enviada com sucesso!').waitFor();
    await shots(page, 'contact-sent', form);
    const mail = await waitForMail(e2e('mailboxURL'), 'contato@sentinela.example', /Contato pelo site: “Rita Visitante”/);
    expect(mail.text).toContain(marker);
    expect(mail.text).toContain('(21) 99876-5432');
    const stored = await query<{ forwarded_at: Date | null }>('SELECT forwarded_at FROM contact_messages WHERE message = $1', [marker]);
    expect(stored).toHaveLength(1);
    // The form is empty again and needs a new check.
    expect(await form.getByLabel(/^Mensagem/).inputValue()).toBe('');
    expect(await send.isDisabled()).toBe(true);
    // Invalid fields say so, in Portuguese.
    await form.getByLabel(/^Email/).fill('não é email');
    await form.getByText('Eu não sou um robô').click();
    await form.getByText('Verificado').waitFor({ timeout: 60_000 });
    await send.click();
    await form.getByText('Informe um email válido.').waitFor();
    await form.getByText('Informe o nome.').waitFor();
    await shots(page, 'contact-errors', form);
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 180_000);
});

describe('complete registration and plans (A4, A11)', () => {
  it('a new registrant resends the confirmation, fills the address from the CEP service, saves it and picks a plan', async () => {
    const { context, page } = await newPage(browser);
    const cspViolations = await watchCspViolations(page);
    const stamp = Date.now() % 1_000_000;
    const email = `lia.${stamp}@example.com`;
    const signUp = await context.request.post('/api/client', {
      data: { name: 'Lia Registro', username: `lia${stamp}`, email, phone: '(11) 98888-7777', password: 'Cadastro@2026', client: { name: `Frios Lia ${stamp}` }, altcha: await signUpCheck() },
    });
    expect(signUp.status()).toBe(200);
    await login(page, `lia${stamp}`, 'Cadastro@2026');
    await page.waitForURL('**/my-devices');

    // No device yet: Meus Dispositivos says what comes first and leads to /complete-register (issue 26, ADR 84).
    await page.getByText('Sua empresa ainda não tem dispositivos').waitFor();
    await page.getByText('Faltam 3 passos: confirmar e-mail, endereço, pagamento.').waitFor();
    await shots(page, 'my-devices-empty');
    await page.getByRole('link', { name: 'Concluir cadastro' }).click();
    await page.waitForURL('**/complete-register');

    // Step 1: not confirmed yet; a new link is sent. No step reads as done.
    await page.getByText(`Enviamos um link de confirmação para ${email}`).waitFor();
    for (const step of ['email', 'address', 'payment']) expect(await page.getByTestId(`registration-step-${step}`).getAttribute('data-state')).toBe('todo');
    await shots(page, 'complete-register-step1');
    await page.getByRole('button', { name: 'Reenviar e-mail' }).click();
    await page.getByText('Enviamos um novo e-mail de confirmação').waitFor();
    await waitForMail(e2e('mailboxURL'), email, /Confirme seu e-mail/);
    await page.getByRole('button', { name: 'Próximo' }).click();
    await page.waitForURL(/step=2/);

    // Step 2: an unknown CEP says so; a known one fills the address.
    const cep = page.getByLabel(/^CEP/);
    await cep.pressSequentially('99999999');
    await page.getByText('CEP não encontrado. Confira o número ou preencha o endereço.').waitFor();
    await shots(page, 'complete-register-cep-unknown');
    await cep.fill('');
    await cep.pressSequentially('01310100');
    expect(await cep.inputValue()).toBe('01310-100');
    await expect.poll(() => page.getByRole('textbox', { name: /^Endereço/ }).inputValue()).toBe('Avenida Paulista');
    expect(await page.getByLabel(/^Bairro/).inputValue()).toBe('Bela Vista');
    expect(await page.getByLabel(/^Cidade/).inputValue()).toBe('São Paulo');
    expect(await page.getByLabel(/^UF/).first().inputValue()).toBe('SP');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe o número.').waitFor();
    await page.getByLabel(/^Número/).fill('1000');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Endereço salvo com sucesso!').waitFor();
    await expect.poll(() => page.getByTestId('registration-step-address').getAttribute('data-state')).toBe('done');
    expect(await page.getByTestId('registration-step-email').getAttribute('data-state')).toBe('todo');
    await shots(page, 'complete-register-step2');
    const [address] = await query<{ city: string; ibge: string; number: string }>(
      'SELECT a.city, a.ibge, a.number FROM enterprise_addresses a JOIN users u ON u.enterprise_id = a.enterprise_id WHERE u.email = $1',
      [email],
    );
    expect(address).toEqual({ city: 'São Paulo', ibge: '3550308', number: '1000' });

    // Step 3: no plan yet; choose one on /plans, which then marks it.
    await page.getByRole('button', { name: 'Próximo' }).click();
    await page.getByText('Sua empresa ainda não escolheu um plano.').waitFor();
    await shots(page, 'complete-register-step3');
    await page.getByRole('link', { name: 'Escolher plano' }).click();
    await page.waitForURL('**/plans');
    // Each choice is confirmed in a modal that says when it takes effect (ADR 32): the first at once, with its invoice.
    await page.getByRole('button', { name: 'Selecionar plano Profissional Mensal' }).click();
    await page.getByText(/passa a ser o da sua empresa agora/).waitFor();
    await page.getByRole('button', { name: 'Confirmar troca' }).click();
    await page.getByText('Plano escolhido com sucesso!').waitFor();
    await page.getByRole('button', { name: 'Plano atual Profissional Mensal' }).waitFor();
    expect(await page.getByRole('button', { name: 'Plano atual Profissional Mensal' }).isDisabled()).toBe(true);
    await shots(page, 'plans-current');
    await page.getByRole('tab', { name: 'Anual' }).click();
    await page.getByRole('button', { name: 'Selecionar plano Empresarial Anual' }).click();
    await page.getByText(/começa no próximo ciclo/).waitFor();
    await page.getByRole('button', { name: 'Confirmar troca' }).click();
    await page.getByText('Pedido de troca de plano registrado!').waitFor();
    await page.getByText(/Troca agendada: Empresarial/).waitFor();
    await shots(page, 'plans-change-requested');
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 180_000);
});

describe('users of an enterprise (A13)', () => {
  it('an enterprise administrator registers a user, who is e-mailed a code to choose a password', async () => {
    const { context, page } = await newPage(browser);
    const cspViolations = await watchCspViolations(page);
    const stamp = Date.now() % 1_000_000;
    const email = `novo.${stamp}@aurora.example`;
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/enterprise-users');
    await page.getByRole('link', { name: 'Novo usuário' }).click();
    await page.waitForURL(/\/register-user\?id=/);
    await page.getByRole('heading', { name: /Cadastro de usuário/ }).waitFor();
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Informe o nome.').waitFor();
    await shots(page, 'register-user-errors');
    await page.getByLabel(/^Nome/).fill('Otávio Novo');
    await page.getByLabel(/^Usuário/).fill(`otavio${stamp}`);
    await page.getByLabel(/^Email/).fill('joao.silva@aurora.example');
    await page.getByLabel(/^Telefone/).pressSequentially('11977776666');
    await page.getByLabel(/^Perfil/).first().click();
    await page.getByRole('option', { name: 'Cliente operador' }).click();
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Email já cadastrado no sistema.').waitFor();
    await page.getByLabel(/^Email/).fill(email);
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Usuário cadastrado com sucesso!').waitFor();
    await shots(page, 'register-user-created');
    const mail = await waitForMail(e2e('mailboxURL'), email, /Sua conta no Sentinela foi criada/);
    expect(mail.text).toMatch(/^\s+\d{6}$/m);
    const [user] = await query<{ profile_id: number; is_owner: boolean }>('SELECT profile_id, is_owner FROM users WHERE email = $1', [email]);
    expect(user).toEqual({ profile_id: 4, is_owner: false });
    await page.getByRole('link', { name: 'Voltar para Meus Dispositivos' }).click();
    await page.waitForURL('**/my-devices');
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 180_000);
});
