import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_MESSAGES, CardListResponse, PaymentCard } from '@sentinela/contract';
import { loadConfig } from '../src/config/config';
import { createTestContext, type TestContext } from './context';
import { PAGARME_DECLINED_CARD, PAGARME_TEST_CARD, startFakePagarme } from './fake-pagarme';

/** Cards tokenised by the payment provider, Pagar.me API v5 (issue 13 item 4; ADR 31), against a local Pagar.me. */
let ctx: TestContext;
let bare: TestContext;
let pagarme: Awaited<ReturnType<typeof startFakePagarme>>;
const tokens: Record<string, string> = {};
const enterprises: Record<string, string> = {};
const nextYear = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  pagarme = await startFakePagarme();
  ctx = await createTestContext({
    demo: true,
    config: { cardProvider: { name: 'pagarme', publicKey: pagarme.publicKey, secretKey: pagarme.secretKey, apiUrl: pagarme.apiUrl, timeoutMs: 2000 } },
  });
  bare = await createTestContext({ demo: true });
  for (const username of ['aurora.adm', 'vida.adm', 'admin', 'joao.silva']) {
    const { token, user } = await ctx.login(username);
    tokens[username] = token;
    if (user.enterprise) enterprises[username] = user.enterprise._id;
  }
});
afterAll(async () => {
  await ctx.close();
  await bare.close();
  await pagarme.close();
});

/** A token as the browser makes it, straight at the provider. */
async function browserToken(number = PAGARME_TEST_CARD, holder = 'AURORA ALIMENTOS LTDA'): Promise<string> {
  const res = await pagarme.token({ number, holder_name: holder, exp_month: 12, exp_year: nextYear, cvv: '123' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const list = async (username: string, query = '') => {
  const res = await ctx.request('GET', `/api/cards${query}`, tokens[username]);
  expect(res.statusCode, res.body).toBe(200);
  return CardListResponse.parse(res.json());
};

async function addCard(username: string, number = PAGARME_TEST_CARD, extra: Record<string, unknown> = {}) {
  return ctx.request('POST', '/api/cards', tokens[username], { token: await browserToken(number), ...extra });
}

const storedCards = () => ctx.db.selectFrom('payment_cards').selectAll().execute();

describe('settings', () => {
  it('asks for both Pagar.me keys with CARD_PROVIDER=pagarme, and has no provider by default', () => {
    expect(() => loadConfig({ CARD_PROVIDER: 'pagarme', PAGARME_PUBLIC_KEY: 'pk_test_x' })).toThrow(/PAGARME_SECRET_KEY/);
    expect(loadConfig({}).cardProvider).toBeUndefined();
    const config = loadConfig({ CARD_PROVIDER: 'pagarme', PAGARME_PUBLIC_KEY: 'pk_test_x', PAGARME_SECRET_KEY: 'sk_test_y' });
    expect(config.cardProvider).toMatchObject({ name: 'pagarme', apiUrl: 'https://api.pagar.me/core/v5' });
  });

  it('lets the page connect to the provider only when one is configured (CSP)', async () => {
    const withProvider = await ctx.request('GET', '/api/health');
    expect(String(withProvider.headers['content-security-policy'])).toMatch(new RegExp(`connect-src 'self' ${new URL(pagarme.apiUrl).origin.replace(/\./g, '\\.')}`));
    const without = await bare.request('GET', '/api/health');
    expect(String(without.headers['content-security-policy'])).toMatch(/connect-src 'self';/);
  });
});

describe('cards of an enterprise', () => {
  it('tells the browser where to tokenise, and lists no card at first', async () => {
    const body = await list('aurora.adm');
    expect(body.data).toEqual([]);
    expect(body.tokenizer).toEqual({ provider: 'pagarme', public_key: pagarme.publicKey, token_url: `${pagarme.apiUrl}/tokens?appId=${pagarme.publicKey}` });
  });

  it('adds a card from the token: customer and card made at the provider, only what may be shown kept', async () => {
    const before = pagarme.calls.length;
    const res = await addCard('aurora.adm');
    expect(res.statusCode, res.body).toBe(201);
    const card = PaymentCard.parse(res.json());
    expect(card).toMatchObject({ brand: 'Visa', last4: '0010', holder: 'AURORA ALIMENTOS LTDA', exp_month: 12, exp_year: nextYear, main: true });

    const serverCalls = pagarme.calls.slice(before).filter((c) => !c.path.includes('/tokens'));
    expect(serverCalls.map((c) => `${c.method} ${c.path.replace(/cus_\w+/, 'cus_*')}`)).toEqual(['POST /core/v5/customers', 'POST /core/v5/customers/cus_*/cards']);
    for (const call of serverCalls) {
      expect(call.authorization).toBe(`Basic ${Buffer.from(`${pagarme.secretKey}:`).toString('base64')}`);
      expect(call.body).not.toContain(PAGARME_TEST_CARD);
      expect(call.body).not.toContain('"cvv"');
    }
    const [row] = await storedCards();
    expect(row).toMatchObject({ provider: 'pagarme', last4: '0010', brand: 'Visa', is_main: true });
    expect(row!.provider_card_id).toMatch(/^card_/);
    expect(JSON.stringify(row)).not.toContain(PAGARME_TEST_CARD);
    // The enterprise's customer is made once.
    const again = await addCard('aurora.adm', '5555555555554444');
    expect(again.statusCode, again.body).toBe(201);
    expect(PaymentCard.parse(again.json())).toMatchObject({ brand: 'Mastercard', last4: '4444', main: false });
    expect(pagarme.calls.filter((c) => c.method === 'POST' && c.path === '/core/v5/customers')).toHaveLength(1);
  });

  it('refuses a body that carries the card number or the security code, and calls nobody', async () => {
    const before = pagarme.calls.length;
    const cardsBefore = (await storedCards()).length;
    for (const body of [
      { token: 'token_abc123', number: PAGARME_TEST_CARD },
      { token: 'token_abc123', cvv: '123' },
      { number: PAGARME_TEST_CARD, holder_name: 'X', exp_month: 12, exp_year: nextYear, cvv: '123' },
      { token: PAGARME_TEST_CARD },
      { token: 'token_<script>' },
    ]) {
      const res = await ctx.request('POST', '/api/cards', tokens['aurora.adm'], body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(/token/i);
    }
    const res = await ctx.request('POST', '/api/cards', tokens['aurora.adm'], { token: 'token_abc', number: PAGARME_TEST_CARD });
    expect(res.json().error).toContain(CARD_MESSAGES.onlyToken);
    expect(pagarme.calls.length).toBe(before);
    expect((await storedCards()).length).toBe(cardsBefore);
  });

  it('answers the provider refusals in pt-BR and stores nothing', async () => {
    const count = (await storedCards()).length;
    const declined = await addCard('aurora.adm', PAGARME_DECLINED_CARD);
    expect(declined.statusCode).toBe(422);
    expect(declined.json().error).toBe(CARD_MESSAGES.declined);

    const token = await browserToken();
    expect((await ctx.request('POST', '/api/cards', tokens['aurora.adm'], { token })).statusCode).toBe(201);
    const reused = await ctx.request('POST', '/api/cards', tokens['aurora.adm'], { token });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error).toBe(CARD_MESSAGES.tokenRefused);

    const unknown = await ctx.request('POST', '/api/cards', tokens['aurora.adm'], { token: 'token_doesnotexist' });
    expect(unknown.statusCode).toBe(422);

    pagarme.failNext(500);
    const down = await addCard('aurora.adm');
    expect(down.statusCode).toBe(502);
    expect(down.json().error).toBe(CARD_MESSAGES.providerUnavailable);
    expect((await storedCards()).length).toBe(count + 1);
    // Three cards now; the one of the reused token is removed again for the next tests.
    const third = (await list('aurora.adm')).data.find((c) => !c.main && c.last4 === '0010');
    expect((await ctx.request('DELETE', `/api/cards/${third!.id}`, tokens['aurora.adm'])).statusCode).toBe(200);
  });

  it('makes another card the main one: exactly one main card', async () => {
    const { data } = await list('aurora.adm');
    expect(data.filter((c) => c.main)).toHaveLength(1);
    const other = data.find((c) => !c.main)!;
    const res = await ctx.request('POST', `/api/cards/${other.id}/main`, tokens['aurora.adm']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: other.id, main: true });
    const after = (await list('aurora.adm')).data;
    expect(after.filter((c) => c.main).map((c) => c.id)).toEqual([other.id]);
    expect(after[0]!.id).toBe(other.id);
  });

  it('removes a card at the provider too; the main card hands its flag on', async () => {
    const { data } = await list('aurora.adm');
    const main = data.find((c) => c.main)!;
    const row = await ctx.db.selectFrom('payment_cards').select('provider_card_id').where('id', '=', main.id).executeTakeFirstOrThrow();
    const res = await ctx.request('DELETE', `/api/cards/${main.id}`, tokens['aurora.adm']);
    expect(res.statusCode, res.body).toBe(200);
    expect(pagarme.cards.get(row.provider_card_id)?.status).toBe('deleted');
    const after = (await list('aurora.adm')).data;
    expect(after).toHaveLength(data.length - 1);
    expect(after.filter((c) => c.main)).toHaveLength(1);
  });

  it('keeps the card when the provider cannot remove it', async () => {
    const { data } = await list('aurora.adm');
    pagarme.failNext(503);
    const res = await ctx.request('DELETE', `/api/cards/${data[0]!.id}`, tokens['aurora.adm']);
    expect(res.statusCode).toBe(502);
    expect((await list('aurora.adm')).data).toHaveLength(data.length);
  });
});

describe('who may reach which cards', () => {
  it('keeps other enterprises out: their card ids are 404 and nothing changes', async () => {
    const vidaCard = await addCard('vida.adm');
    expect(vidaCard.statusCode, vidaCard.body).toBe(201);
    const vidaId = PaymentCard.parse(vidaCard.json()).id;
    const auroraIds = (await list('aurora.adm')).data.map((c) => c.id);
    expect(auroraIds).not.toContain(vidaId);
    const before = await storedCards();

    for (const [method, url] of [['POST', `/api/cards/${vidaId}/main`], ['DELETE', `/api/cards/${vidaId}`]] as const) {
      const res = await ctx.request(method, url, tokens['aurora.adm']);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(CARD_MESSAGES.cardNotFound);
    }
    const otherList = await ctx.request('GET', `/api/cards?enterprise_id=${enterprises['vida.adm']}`, tokens['aurora.adm']);
    expect(otherList.statusCode).toBe(404);
    const otherAdd = await addCard('aurora.adm', PAGARME_TEST_CARD, { enterprise_id: enterprises['vida.adm'] });
    expect(otherAdd.statusCode).toBe(404);
    expect(await storedCards()).toEqual(before);
  });

  it('lets only administrators in; the super admin names the enterprise', async () => {
    expect((await ctx.request('GET', '/api/cards', tokens['joao.silva'])).statusCode).toBe(403);
    expect((await ctx.request('POST', '/api/cards', tokens['joao.silva'], { token: 'token_abc' })).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/cards')).statusCode).toBe(401);

    const noEnterprise = await ctx.request('GET', '/api/cards', tokens.admin);
    expect(noEnterprise.statusCode).toBe(400);
    expect(noEnterprise.json().error).toBe(CARD_MESSAGES.enterpriseRequired);
    expect((await ctx.request('GET', '/api/cards?enterprise_id=00000000-0000-4000-8000-000000000000', tokens.admin)).statusCode).toBe(404);
    expect((await ctx.request('GET', '/api/cards?enterprise_id=nope', tokens.admin)).statusCode).toBe(400);

    const vida = await list('admin', `?enterprise_id=${enterprises['vida.adm']}`);
    expect(vida.data).toHaveLength(1);
    const added = await addCard('admin', '5555555555554444', { enterprise_id: enterprises['vida.adm'] });
    expect(added.statusCode, added.body).toBe(201);
    const id = PaymentCard.parse(added.json()).id;
    expect((await ctx.request('POST', `/api/cards/${id}/main`, tokens.admin)).json()).toMatchObject({ main: true });
    expect((await list('vida.adm')).data.filter((c) => c.main).map((c) => c.id)).toEqual([id]);
    expect((await ctx.request('POST', '/api/cards/not-a-uuid/main', tokens.admin)).statusCode).toBe(400);
  });
});

describe('without a provider', () => {
  it('lists cards with no tokenizer and refuses to add one', async () => {
    const { token } = await bare.login('aurora.adm');
    const res = await bare.request('GET', '/api/cards', token);
    expect(res.statusCode).toBe(200);
    expect(CardListResponse.parse(res.json())).toEqual({ data: [], tokenizer: null });
    const add = await bare.request('POST', '/api/cards', token, { token: 'token_abc123' });
    expect(add.statusCode).toBe(409);
    expect(add.json().error).toBe(CARD_MESSAGES.notConfigured);
    expect(await bare.db.selectFrom('payment_cards').selectAll().execute()).toEqual([]);
  });
});
