import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { CODES, MACS, deviceId, travelId } from './travel-helpers';

/**
 * Calls of spec 001 §7 as a client written from the documents makes them (issue 26, point 1): the request as the
 * table shows it, the answer read by the fields the documents name (§3 entities). The web app's own forms of these
 * calls are tested in their areas' files.
 */
let ctx: TestContext;
let aurora: string;
let joao: string;
const ZONE = 'America/Sao_Paulo';

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  aurora = (await ctx.login('aurora.adm')).token;
  joao = (await ctx.login('joao.silva')).token;
});
afterAll(() => ctx.close());

/** What a datetime-local input holds for an instant in São Paulo: "2026-11-27T10:05" (no offset). */
function datetimeLocal(instant: Date, zone = ZONE): string {
  return instant.toLocaleString('sv-SE', { timeZone: zone, hour12: false }).replace(' ', 'T').slice(0, 16);
}

const minuteFloor = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000);

describe('GET /api/beacon-device/history/mac/{mac} — "query: filter params → reading list"', () => {
  it('answers the readings of the window typed in the datetime-local inputs as a list, oldest first', async () => {
    const end = minuteFloor(ctx.clock.now().getTime() - 3600_000);
    const start = new Date(end.getTime() - 3600_000);
    const query = new URLSearchParams({
      minTemp: '', maxTemp: '', minHum: '', maxHum: '',
      dateInit: datetimeLocal(start), dateEnd: datetimeLocal(end), isUtc: 'false', lastTwoDays: 'false',
    });
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}?${query}`, aurora);
    expect(res.statusCode, res.body).toBe(200);
    const readings = res.json() as { temperature: number | null; humidity: number | null; createdAt: string; travelId: string | null; mac: string }[];
    expect(Array.isArray(readings)).toBe(true);
    // A reading every 5 minutes over one hour; the end typed to the minute keeps that whole minute.
    expect(readings.length).toBeGreaterThanOrEqual(12);
    expect(readings.length).toBeLessThanOrEqual(13);
    for (const r of readings) {
      expect(typeof r.temperature).toBe('number');
      expect(typeof r.humidity).toBe('number');
      expect(r.mac).toBe(MACS.chamber);
      expect(r.travelId).toBeNull();
      const t = Date.parse(r.createdAt);
      expect(r.createdAt.endsWith('Z')).toBe(true);
      expect(t).toBeGreaterThanOrEqual(start.getTime());
      expect(t).toBeLessThan(end.getTime() + 60_000);
    }
    const times = readings.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // The same window as UTC instants, and typed in UTC with "Filtrar data em UTC?" on Sim: the same readings.
    const utc = new URLSearchParams({ dateInitUtc: start.toISOString(), dateEndUtc: new Date(end.getTime() + 59_999).toISOString(), isUtc: 'false' });
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}?${utc}`, aurora)).json()).toEqual(readings);
    const typedUtc = new URLSearchParams({ dateInit: datetimeLocal(start, 'UTC'), dateEnd: datetimeLocal(end, 'UTC'), isUtc: 'true' });
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}?${typedUtc}`, aurora)).json()).toEqual(readings);

    // The web app's paged envelope of the same window, on its own path, holds the same readings newest first.
    const page = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}/page?${utc}&limit=1000`, aurora);
    expect(page.json().total).toBe(readings.length);
    expect(page.json().data).toEqual([...readings].reverse());
  });

  it('defaults to the last two days, filters by value, and is 404 for another enterprise', async () => {
    const all = (await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}`, aurora)).json() as { temperature: number }[];
    expect(all.length).toBeGreaterThanOrEqual(576);
    const warm = (await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}?minTemp=-19`, aurora)).json() as { temperature: number }[];
    expect(warm.length).toBeLessThan(all.length);
    expect(warm.every((r) => r.temperature >= -19)).toBe(true);
    const vida = (await ctx.login('vida.adm')).token;
    const foreign = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}`, vida);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Dispositivo não encontrado.');
    const bad = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}?dateInit=2026-02-30T10:00`, aurora);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^Data inicial não é uma data válida/);
  });
});

describe('PUT /api/travels/edit-travel-device — "name, config, travel_id, device_id"', () => {
  it('takes the limits as the documents hold them, strings parsed as numbers', async () => {
    const travel = await travelId(ctx, CODES.auroraInProgress);
    const device = await deviceId(ctx, MACS.truck1);
    const res = await ctx.request('PUT', '/api/travels/edit-travel-device', joao, {
      name: 'Baú Refrigerado',
      config: { temperature: { min: '2', max: '8.5' }, humidity: { min: '40', max: '85' } },
      travel_id: travel,
      device_id: device,
    });
    expect(res.statusCode, res.body).toBe(200);
    const card = (res.json().devices as { mac: string; name: string; config: unknown }[]).find((d) => d.mac === MACS.truck1);
    expect(card).toMatchObject({ name: 'Baú Refrigerado', config: { temperature: { min: 2, max: 8.5 }, humidity: { min: 40, max: 85 } } });
    // The same strings through PUT /api/devices/{id}: one rule for both calls.
    const own = await ctx.request('PUT', `/api/devices/${device}`, aurora, { config: { temperature: { min: '2', max: '8.5' } } });
    expect(own.statusCode, own.body).toBe(200);
  });
});

describe('GET /api/reports — "optional query dateInit, dateEnd" from two datetime-local inputs', () => {
  it('reads values without an offset as times of the users\' zone (America/Sao_Paulo)', async () => {
    const first = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}/pdf`, aurora);
    expect(first.statusCode).toBe(200);
    // Two minutes apart (a session lasts five minutes on the test clock too).
    ctx.clock.advance(2 * 60_000);
    const second = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}/excel`, aurora);
    ctx.clock.advance(60_000);
    const secondAt = new Date(second.json().created_at);

    // From the minute after the first report: only the second. Up to the minute of the first: only the first.
    const from = datetimeLocal(new Date(secondAt.getTime() - 60_000));
    const later = await ctx.request('GET', `/api/reports?dateInit=${encodeURIComponent(from)}&dateEnd=`, aurora);
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().map((r: { _id: string }) => r._id)).toEqual([second.json()._id]);
    const upTo = datetimeLocal(new Date(first.json().created_at));
    const earlier = await ctx.request('GET', `/api/reports?dateInit=&dateEnd=${encodeURIComponent(upTo)}`, aurora);
    const ids = earlier.json().map((r: { _id: string }) => r._id);
    // The end typed to the minute covers that minute: the report asked for at hh:mm:ss is in.
    expect(ids).toContain(first.json()._id);
    expect(ids).not.toContain(second.json()._id);
    // The UTC wall time of that instant, read as São Paulo's, lies three hours later: nothing was asked for after it.
    const asUtc = await ctx.request('GET', `/api/reports?dateInit=${encodeURIComponent(datetimeLocal(new Date(secondAt.getTime() - 60_000), 'UTC'))}`, aurora);
    expect(asUtc.json()).toEqual([]);
    const nonsense = await ctx.request('GET', '/api/reports?dateInit=2026-13-01T10:00', aurora);
    expect(nonsense.statusCode).toBe(400);
  });
});
