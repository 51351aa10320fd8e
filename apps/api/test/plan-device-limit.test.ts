import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLimitMessage } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

/** The device limit of an enterprise's plan (issue 13, item 1; ADR 28). */
let ctx: TestContext;
let admin: string;
let basic: { _id: string; cicle: { id: string; name: string }[] };
const devices: string[] = [];

async function createEnterprise(name: string, email: string) {
  const created = await ctx.request('POST', '/api/client/create/', admin, { client: { name }, user: { email, password: 'Cofre#Azul7134' } });
  expect(created.statusCode, created.body).toBe(201);
  const owner = (await ctx.login(created.json().user.username, 'Cofre#Azul7134')).token;
  return { id: created.json().client._id as string, owner };
}

/** The enterprise's own administrator chooses the plan on /plans (the first choice applies at once). */
async function choosePlan(owner: string, plan: { _id: string; cicle: { id: string }[] }) {
  const res = await ctx.request('POST', '/api/enterprise/plan', owner, { plan_id: plan._id, cicle_id: plan.cicle[0]!.id });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

const link = (clientId: string, ids: string[], toUpdate: 0 | 1 = 1) => ctx.request('POST', '/api/devices/link/client', admin, { devices: ids, to_update: toUpdate, client_id: clientId });
const countOf = async (enterpriseId: string) =>
  Number((await ctx.db.selectFrom('devices').select((eb) => eb.fn.countAll<string>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow()).n);
const linkEvents = async () => Number((await ctx.db.selectFrom('device_events').select((eb) => eb.fn.countAll<string>().as('n')).where('type', '=', 'link').executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  admin = (await ctx.login('admin')).token;
  const res = await ctx.request('POST', '/api/admin/plans', admin, { name: 'Básico', max_devices: 2, features: ['Até 2 sensores'], cycles: [{ name: 'Mensal', value: 49.9 }] });
  expect(res.statusCode, res.body).toBe(201);
  basic = res.json();
  for (let n = 0; n < 9; n += 1) {
    const beacon = await ctx.request('POST', '/api/beacon-device', admin, { mac: `AB:00:00:00:00:0${n}`, name: `Limite ${n}` });
    expect(beacon.statusCode, beacon.body).toBeLessThan(300);
    devices.push(beacon.json()._id);
  }
});
afterAll(() => ctx.close());

describe('linking devices into an enterprise on a plan with a limit', () => {
  it('links up to the limit, refuses beyond it naming the plan and changes nothing, and lets a replacement through', async () => {
    const sul = await createEnterprise('Frios do Sul', 'frios@sul.example');
    await choosePlan(sul.owner, basic);
    expect((await link(sul.id, [devices[0]!, devices[1]!])).statusCode).toBe(200);

    const eventsBefore = await linkEvents();
    const refused = await link(sul.id, [devices[2]!]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(deviceLimitMessage('Básico', 2, 2, 3));
    expect(refused.json().error).toMatch(/^O plano Básico permite até 2 dispositivos\./);
    expect(await countOf(sul.id)).toBe(2);
    expect((await ctx.db.selectFrom('devices').select('enterprise_id').where('id', '=', devices[2]!).executeTakeFirstOrThrow()).enterprise_id).toBeNull();
    expect(await linkEvents()).toBe(eventsBefore);

    // The whole set replaced by another of the same size: within the limit.
    const replaced = await link(sul.id, [devices[0]!, devices[2]!], 0);
    expect(replaced.json()).toMatchObject({ linked: 1, unlinked: 1 });
    expect(await countOf(sul.id)).toBe(2);

    // A retired plan keeps limiting those who keep it.
    expect((await ctx.request('POST', `/api/admin/plans/${basic._id}/retire`, admin)).statusCode).toBe(200);
    expect((await link(sul.id, [devices[1]!])).statusCode).toBe(409);
    expect((await ctx.request('POST', `/api/admin/plans/${basic._id}/restore`, admin)).statusCode).toBe(200);

    // Raising the plan's limit lets the enterprise grow.
    const edited = await ctx.request('PUT', `/api/admin/plans/${basic._id}`, admin, { name: 'Básico', max_devices: 3, features: ['Até 3 sensores'], cycles: [{ name: 'Mensal', value: 49.9 }] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await link(sul.id, [devices[1]!])).statusCode).toBe(200);
    expect(await countOf(sul.id)).toBe(3);
    await ctx.request('PUT', `/api/admin/plans/${basic._id}`, admin, { name: 'Básico', max_devices: 2, features: ['Até 2 sensores'], cycles: [{ name: 'Mensal', value: 49.9 }] });

    // Above the limit after the change: removing is always allowed, adding is not.
    expect((await link(sul.id, [devices[0]!], 0)).json()).toMatchObject({ linked: 0, unlinked: 2 });
    expect(await countOf(sul.id)).toBe(1);
  });

  it('other enterprises are unaffected: one without a plan, one on an unlimited plan', async () => {
    const free = await createEnterprise('Sem Plano', 'sem@plano.example');
    expect((await link(free.id, [devices[3]!, devices[4]!, devices[5]!])).statusCode).toBe(200);
    expect(await countOf(free.id)).toBe(3);
    const unlimited = (await ctx.request('GET', '/api/admin/plans', admin)).json().find((p: { max_devices: number | null }) => p.max_devices === null);
    const big = unlimited ?? (await ctx.request('POST', '/api/admin/plans', admin, { name: 'Ilimitado', features: [], cycles: [{ name: 'Mensal', value: 1 }] })).json();
    const wide = await createEnterprise('Sem Limite', 'sem@limite.example');
    await choosePlan(wide.owner, big);
    expect((await link(wide.id, [devices[6]!, devices[7]!, devices[8]!].filter(Boolean))).statusCode).toBe(200);
    // Nothing moved between enterprises.
    expect(await countOf(free.id)).toBe(3);
    expect(await countOf(wide.id)).toBe(3);
  });

  it('concurrent link calls cannot together exceed the limit', async () => {
    const race = await createEnterprise('Corrida Frios', 'corrida@frios.example');
    await choosePlan(race.owner, basic);
    const fresh: string[] = [];
    for (let n = 0; n < 3; n += 1) fresh.push((await ctx.request('POST', '/api/beacon-device', admin, { mac: `AC:00:00:00:00:0${n}`, name: `Corrida ${n}` })).json()._id);
    const answers = await Promise.all(fresh.map((id) => link(race.id, [id])));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 409]);
    expect(await countOf(race.id)).toBe(2);
  });
});
