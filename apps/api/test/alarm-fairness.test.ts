import { Profile } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { startFakeTelegram, type BotApiCall, type FakeTelegram } from './fake-telegram';
import { at, postReadings } from './ingest-helpers';

/**
 * One enterprise's flood of alarm messages does not hold another's (ADR 87, issue 27 target 6): Aurora's messages
 * hang at a slow Bot API while Vida Farma's alarm still reaches its chat.
 */
const AURORA_DEVICES = [
  { mac: 'C3:00:00:00:01:01', temperature: 30 }, // 0..8 °C
  { mac: 'C3:00:00:00:01:02', temperature: 30 }, // 0..8 °C
  { mac: 'C3:00:00:00:01:03', temperature: 0 }, // -22..-16 °C
];
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma, 2..8 °C
const AURORA_CHATS = [5_560_001, 5_560_002, 5_560_003];
const VIDA_CHAT = 5_560_100;

let ctx: TestContext;
let telegram: FakeTelegram;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  ctx = await createTestContext({ demo: true, config: { telegramBotToken: telegram.token, telegramApiRoot: telegram.apiRoot } });
});
afterAll(async () => {
  for (const chat of AURORA_CHATS) telegram?.release(chat);
  await ctx?.close();
  await telegram?.close();
});

/** An administrator of the enterprise who hears alarms on Telegram only. */
async function telegramAdmin(enterpriseName: string, username: string, chatId: number): Promise<void> {
  const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', 'like', `${enterpriseName}%`).executeTakeFirstOrThrow();
  const user = await ctx.db
    .insertInto('users')
    .values({
      name: username, username, email: `${username}@example.com`, phone: null, password_hash: 'unusable', profile_id: Profile.EnterpriseAdmin,
      enterprise_id: enterprise.id, verified: true, telegram_chat_id: String(chatId),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('notification_channels').values({ user_id: user.id, channel: 'telegram' }).execute();
}

const toChat = (chatId: number) => (c: BotApiCall) => c.method === 'sendMessage' && Number(c.params.chat_id) === chatId;

describe('alarm messages under one enterprise’s flood', () => {
  it('reach another enterprise while the flooding one’s hang', async () => {
    for (const [n, chat] of AURORA_CHATS.entries()) await telegramAdmin('Aurora', `plantao.aurora${n}`, chat);
    await telegramAdmin('Vida', 'plantao.vida', VIDA_CHAT);
    for (const chat of AURORA_CHATS) telegram.hold(chat);

    // Three alarms of Aurora, three Telegram recipients each: nine messages that hang at the Bot API (one at a time).
    const flood = await postReadings(ctx, AURORA_DEVICES.map((d) => ({ mac: d.mac, ts: at(ctx, -5), temperature: d.temperature })));
    expect(flood.statusCode).toBe(200);
    const hanging = () => telegram.calls.filter((c) => AURORA_CHATS.some((chat) => toChat(chat)(c))).length;
    // Aurora's nine messages are queued, and one hangs, before Vida's alarm opens.
    const auroraDeliveries = () =>
      ctx.db.selectFrom('alarm_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('recipient', 'in', AURORA_CHATS.map(String)).executeTakeFirstOrThrow();
    await expect.poll(async () => Number((await auroraDeliveries()).n), { timeout: 20_000 }).toBe(9);
    await expect.poll(hanging, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

    const vida = await postReadings(ctx, [{ mac: VACCINES, ts: at(ctx, -4), temperature: 15 }]);
    expect(vida.statusCode).toBe(200);
    const told = await telegram.waitForCall(toChat(VIDA_CHAT), 20_000);
    expect(String(told.params.text)).toMatch(/Temperatura acima do limite máximo[^]*Geladeira Vacinas/);
    // Aurora's messages were still hanging then: one of its deliveries at a time, the other workers free.
    expect(hanging()).toBe(1);

    // Released, Aurora's nine messages all go out.
    for (const chat of AURORA_CHATS) telegram.release(chat);
    await expect.poll(hanging, { timeout: 30_000 }).toBe(9);
  });
});
