import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import pg from 'pg';
import { DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, watchCspViolations, deviceEntry, listEntry } from './browser';
import { e2e } from './environment';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const CHAT = 7_000_123;
/** Maria's profile phone, (11) 99999-0001, as the providers receive it. */
const MARIA_MOBILE = '+5511999990001';
const PHONE = { width: 390, height: 844 };

interface BotCall {
  method: string;
  params: Record<string, unknown>;
}

async function botCalls(): Promise<BotCall[]> {
  return (await (await fetch(`${e2e('telegramURL')}/_control/calls`)).json()) as BotCall[];
}

/** Sends /start to the bot from the chat, as Telegram would, and returns the link it answers with. */
async function startChat(chatId: number): Promise<URL> {
  const before = (await botCalls()).length;
  await fetch(`${e2e('telegramURL')}/_control/send-text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatId, text: '/start' }) });
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
    await expect.poll(() => page.title()).toContain('Configurações');
    await page.getByText('Por onde deseja receber notificações?').waitFor();

    const email = page.getByRole('switch', { name: 'E-mail' });
    const telegram = page.getByRole('switch', { name: 'Telegram' });
    await email.waitFor();
    expect(await email.isChecked()).toBe(false);
    expect(await telegram.isDisabled()).toBe(true);
    await page.getByText('Vincule sua conta do Telegram').waitFor();
    expect(await page.getByRole('link', { name: 'Abrir o bot no Telegram' }).getAttribute('href')).toBe('https://t.me/sentinela_teste_bot');
    // SMS and WhatsApp providers are configured (the local fakes) and Maria has a mobile number: usable.
    expect(await page.getByRole('switch', { name: 'SMS' }).isDisabled()).toBe(false);
    await email.click({ force: true });
    await expect.poll(() => email.isChecked()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'E-mail' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-desktop');
    const settingsOnPhone = await newPage(browser, PHONE);
    await login(settingsOnPhone.page, 'maria.souza');
    await settingsOnPhone.page.waitForURL('**/my-devices');
    await settingsOnPhone.page.goto('/settings');
    await settingsOnPhone.page.getByText('Vincule sua conta do Telegram').waitFor();
    await screenshot(settingsOnPhone.page, 'settings-phone');
    await settingsOnPhone.context.close();

    // The bot's link, opened in another browser (the phone where Telegram runs), signed out.
    const link = await startChat(CHAT);
    expect(link.pathname).toBe(`/telegram/${CHAT}/login`);
    const phone = await newPage(browser, PHONE);
    const phoneCsp = await watchCspViolations(phone.page);
    await phone.page.goto(link.pathname + link.search);
    await phone.page.getByRole('heading', { name: 'Vincular contas' }).waitFor();
    await expect.poll(() => phone.page.title()).toContain('Vincular contas');
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

describe('an alarm reaches Maria by e-mail and Telegram (D6)', () => {
  it('delivers, is acknowledged from the chat, and "Detalhes do alarme" lists the messages', async () => {
    const base = e2e('baseURL');
    // Maria's e-mail is on (above); she links the chat again, through the bot's link, with the API the page calls.
    const link = await startChat(CHAT);
    const headers = { 'content-type': 'application/json', client: 'web', clientversion: '1.1.0', clientos: 'linux' };
    const auth = (await (await fetch(`${base}/api/authenticate`, { method: 'POST', headers, body: JSON.stringify({ username: 'maria.souza', password: DEMO_PASSWORD }) })).json()) as { token: { token: string } };
    // The documents' empty body: no content type.
    const { 'content-type': _json, ...bare } = headers;
    const linked = await fetch(`${base}/api/me/telegram/${CHAT}/link${link.search}`, { method: 'POST', headers: { ...bare, authorization: `Bearer ${auth.token.token}` } });
    expect(linked.status).toBe(200);

    // Caixa Térmica 01 (2 to 8 °C, linked to Maria) reads 12,5 °C.
    const before = (await botCalls()).length;
    const ingest = await fetch(`${base}/api/ingest/readings`, {
      method: 'POST',
      headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:02:02', ts: new Date().toISOString(), temperature: 12.5, humidity: 50 }] }),
    });
    expect(ingest.status).toBe(200);
    let message: BotCall | undefined;
    await expect
      .poll(
        async () => {
          message = (await botCalls()).slice(before).find((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === CHAT && String(c.params.text).includes('Caixa Térmica 01'));
          return Boolean(message);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(String(message!.params.text)).toContain('Valor: 12,50 °C');
    const data = (message!.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }).inline_keyboard[0]![0]!;
    expect(data.text).toBe('Reconhecer');
    // Maria presses it in her chat (the fake records calls, not the ids it answered with; the server edits the pressed message).
    await fetch(`${e2e('telegramURL')}/_control/press`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatId: CHAT, messageId: 1, data: data.callback_data }) });
    await expect
      .poll(async () => (await botCalls()).some((c) => c.method === 'editMessageText' && Number(c.params.chat_id) === CHAT && /Reconhecido por “Maria Souza” em/.test(String(c.params.text))), { timeout: 30_000 })
      .toBe(true);

    for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', PHONE]] as const) {
      const { context, page } = await newPage(browser, viewport);
      const csp = await watchCspViolations(page);
      await login(page, 'maria.souza');
      await page.waitForURL('**/my-devices');
      const row = deviceEntry(page, 'Caixa Térmica 01');
      await row.getByRole('link', { name: 'Histórico' }).click();
      await page.waitForURL('**/device-history/**');
      await page.getByRole('tab', { name: 'Alarmes' }).click();
      const alarmRow = listEntry(page, 'alarm-card').filter({ hasText: 'Temperatura alta' }).first();
      await alarmRow.getByRole('button', { name: 'Detalhes do alarme' }).click();
      const dialog = page.getByRole('dialog', { name: 'Detalhes do alarme' });
      await dialog.getByText(/Reconhecido por Maria Souza em/).waitFor();
      const log = dialog.getByRole('table', { name: 'Notificações enviadas' });
      await log.getByRole('row').filter({ hasText: 'Telegram de Maria Souza' }).filter({ hasText: 'Enviada' }).waitFor({ timeout: 30_000 });
      await log.getByRole('row').filter({ hasText: 'maria.souza@vidafarma.example' }).filter({ hasText: 'Enviada' }).waitFor({ timeout: 30_000 });
      // Let the modal's opening transition finish before the picture.
      await page.waitForTimeout(400);
      await screenshot(page, `alarm-deliveries-${name}`);
      expect(csp).toEqual([]);
      await context.close();
    }
  });
});

describe('Configurações: SMS and WhatsApp (A10, ADR 23)', () => {
  it('a user with a mobile number turns SMS and WhatsApp on; a landline shows why they cannot be used', async () => {
    const { context, page } = await newPage(browser);
    const csp = await watchCspViolations(page);
    await login(page, 'maria.souza');
    await page.waitForURL('**/my-devices');
    await page.goto('/settings');
    const sms = page.getByRole('switch', { name: 'SMS' });
    const whatsapp = page.getByRole('switch', { name: 'WhatsApp' });
    await sms.waitFor();
    expect(await sms.isDisabled()).toBe(false);
    expect(await whatsapp.isDisabled()).toBe(false);
    await sms.click({ force: true });
    await expect.poll(() => sms.isChecked()).toBe(true);
    await whatsapp.click({ force: true });
    await expect.poll(() => whatsapp.isChecked()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'SMS' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('switch', { name: 'WhatsApp' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-sms-whatsapp-on-desktop');

    // Caixa Térmica 02 (2 to 8 °C, linked to Maria) reads 13 °C: her mobile gets the SMS and the WhatsApp template.
    const base = e2e('baseURL');
    const ingest = await fetch(`${base}/api/ingest/readings`, {
      method: 'POST',
      headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:02:03', ts: new Date().toISOString(), temperature: 13, humidity: 50 }] }),
    });
    expect(ingest.status).toBe(200);
    const received = async (url: string) => (await (await fetch(`${url}/_control/messages`)).json()) as Array<Record<string, unknown>>;
    await expect
      .poll(async () => (await received(e2e('smsURL'))).some((m) => m.To === MARIA_MOBILE && String(m.Body).includes('ALARME Temperatura alta em Caixa Térmica 02') && String(m.Body).includes('valor 13,00 °C')), { timeout: 30_000 })
      .toBe(true);
    await expect
      .poll(async () => (await received(e2e('whatsappURL'))).some((m) => m.to === MARIA_MOBILE && m.template === 'sentinela_alarme_aberto' && String(m.text).startsWith('🚨 Alarme no dispositivo Caixa Térmica 02') && String(m.text).includes(': Temperatura alta, 13,00 °C (limite 8,00 °C)')), { timeout: 30_000 })
      .toBe(true);
    await page.goto('/my-devices');
    await page.getByRole('row').filter({ hasText: 'Caixa Térmica 02' }).getByRole('link', { name: 'Histórico' }).click();
    await page.waitForURL('**/device-history/**');
    await page.getByRole('tab', { name: 'Alarmes' }).click();
    await page.getByRole('row').filter({ hasText: 'Temperatura alta' }).first().getByRole('button', { name: 'Detalhes do alarme' }).click();
    const log = page.getByRole('dialog', { name: 'Detalhes do alarme' }).getByRole('table', { name: 'Notificações enviadas' });
    for (const channel of ['SMS', 'WhatsApp']) {
      await log.getByRole('row').filter({ hasText: channel }).filter({ hasText: MARIA_MOBILE }).filter({ hasText: 'Enviada' }).waitFor({ timeout: 30_000 });
    }
    await page.waitForTimeout(400);
    await screenshot(page, 'alarm-deliveries-sms-whatsapp-desktop');
    // Back inside the limits: the alarm ends (and says so by SMS), leaving the device as the other specs expect it.
    const back = await fetch(`${base}/api/ingest/readings`, {
      method: 'POST',
      headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:02:03', ts: new Date().toISOString(), temperature: 5, humidity: 50 }] }),
    });
    expect(back.status).toBe(200);
    await expect
      .poll(async () => (await received(e2e('smsURL'))).some((m) => m.To === MARIA_MOBILE && String(m.Body).startsWith('Sentinela: alarme encerrado, Temperatura alta em Caixa Térmica 02')), { timeout: 30_000 })
      .toBe(true);
    await page.goto('/settings');

    // Turned off again, so that the other specs' alarms send nothing to the fakes on Maria's behalf.
    await page.getByRole('switch', { name: 'SMS' }).click({ force: true });
    await expect.poll(() => page.getByRole('switch', { name: 'SMS' }).isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'WhatsApp' }).click({ force: true });
    await expect.poll(() => page.getByRole('switch', { name: 'WhatsApp' }).isChecked()).toBe(false);
    expect(csp).toEqual([]);
    await context.close();

    // Vida's administrator with a landline on the profile: both refused, with why and the way to the profile.
    const db = new pg.Client({ connectionString: e2e('databaseUrl') });
    await db.connect();
    try {
      await db.query(`UPDATE users SET phone = '(31) 3333-4444' WHERE username = 'vida.adm'`);
      const phone = await newPage(browser, PHONE);
      const phoneCsp = await watchCspViolations(phone.page);
      await login(phone.page, 'vida.adm');
      await phone.page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await phone.page.goto('/settings');
      await phone.page.getByText('O telefone do seu perfil é fixo: cadastre um celular para receber notificações por SMS.').waitFor();
      await phone.page.getByText('O telefone do seu perfil é fixo: cadastre um celular para receber notificações por WhatsApp.').waitFor();
      expect(await phone.page.getByRole('switch', { name: 'SMS' }).isDisabled()).toBe(true);
      expect(await phone.page.getByRole('switch', { name: 'WhatsApp' }).isDisabled()).toBe(true);
      expect(await phone.page.getByRole('link', { name: 'Ir para o Perfil' }).count()).toBeGreaterThanOrEqual(2);
      await screenshot(phone.page, 'settings-sms-landline-phone');
      expect(phoneCsp).toEqual([]);
      await phone.context.close();
      const onPhone = await newPage(browser, PHONE);
      await login(onPhone.page, 'maria.souza');
      await onPhone.page.waitForURL('**/my-devices');
      await onPhone.page.goto('/settings');
      await onPhone.page.getByRole('switch', { name: 'WhatsApp' }).waitFor();
      await screenshot(onPhone.page, 'settings-sms-whatsapp-phone');
      await onPhone.context.close();
    } finally {
      await db.query(`UPDATE users SET phone = '(11) 99999-0001' WHERE username = 'vida.adm'`);
      await db.end();
    }
  });
});
