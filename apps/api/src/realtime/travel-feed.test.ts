import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TravelDevice } from '@sentinela/contract';
import type { DeviceLiveState, ReadingsStoredEvent } from './event-bus';
import { TravelFeed } from './travel-feed';

/** The feed's coalescing, with the clock and timers under the test's control. */
const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const UNWATCHED = '33333333-3333-4333-8333-333333333333';

function device(travelId: string | null, ms: number, patch: Partial<DeviceLiveState> = {}): DeviceLiveState {
  return {
    deviceId: `d-${travelId}`, mac: 'C3:00:00:00:01:01', enterpriseId: null, travelId, lastSyncAt: new Date(ms),
    temperature: 4, humidity: 50, battery: 90, lat: null, lng: null, stored: 1, moved: false, ...patch,
  };
}
const batch = (...devices: DeviceLiveState[]): ReadingsStoredEvent => ({ devices, travelIds: [] });

let loads: string[][];
let emitted: { travelId: string; event: string; payload: unknown }[];
let feed: TravelFeed;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000 });
  loads = [];
  emitted = [];
  feed = new TravelFeed({
    loadCards: async (ids) => {
      loads.push([...ids]);
      return new Map(ids.map((id) => [id, [{ name: `cards of ${id}` } as unknown as TravelDevice]]));
    },
    watched: (id) => id !== UNWATCHED,
    emit: (travelId, event, payload) => emitted.push({ travelId, event, payload }),
    intervalMs: 100,
    log: { error: () => {} },
    now: () => Date.now(),
  });
});
afterEach(async () => {
  await feed.close();
  vi.useRealTimers();
});

/** Lets the feed's immediate flush and its card query run. */
async function settle() {
  await vi.advanceTimersByTimeAsync(0);
}

describe('TravelFeed', () => {
  it('sends the cards of every travel of a batch, read in one query', async () => {
    feed.readingsStored(batch(device(T1, 1), device(T2, 1), device(null, 1), device(UNWATCHED, 1)));
    await settle();
    expect(loads).toEqual([[T1, T2]]);
    expect(emitted.map((e) => e.event)).toEqual([`travel-logs:${T1}`, `travel-logs:${T2}`]);
    expect(emitted[0]!.payload).toEqual([{ name: `cards of ${T1}` }]);
  });

  it('sends the newest position of a travel only when a device moved', async () => {
    feed.readingsStored(batch(device(T1, 5_000, { lat: -23, lng: -46, moved: true }), device(T1, 9_000, { lat: -22, lng: -45, moved: true, mac: 'B' }), device(T2, 9_000, { lat: -20, lng: -44 })));
    await settle();
    const locations = emitted.filter((e) => e.event.startsWith('travel-location-logs:'));
    expect(locations).toEqual([
      { travelId: T1, event: `travel-location-logs:${T1}`, payload: { travelId: T1, last_position: [-22, -45], mac: 'B', createdAt: new Date(9_000).toISOString() } },
    ]);
  });

  it('coalesces a burst into one message per travel and window', async () => {
    feed.readingsStored(batch(device(T1, 1)));
    await settle();
    expect(emitted).toHaveLength(1);

    // Three more batches within the window: held, then sent once when it ends.
    for (const ms of [2, 3, 4]) {
      await vi.advanceTimersByTimeAsync(10);
      feed.readingsStored(batch(device(T1, ms, { lat: -23, lng: ms, moved: true })));
      await settle();
    }
    expect(emitted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(69);
    expect(emitted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(emitted.map((e) => e.event)).toEqual([`travel-logs:${T1}`, `travel-logs:${T1}`, `travel-location-logs:${T1}`]);
    expect((emitted[2]!.payload as { last_position: number[] }).last_position).toEqual([-23, 4]);
    expect(loads).toHaveLength(2);
  });

  it('does not hold a quiet travel behind a busy one', async () => {
    feed.readingsStored(batch(device(T1, 1)));
    await vi.advanceTimersByTimeAsync(10);
    feed.readingsStored(batch(device(T1, 2))); // held until the window ends
    feed.readingsStored(batch(device(T2, 2))); // quiet so far: goes now
    await settle();
    expect(emitted.map((e) => e.travelId)).toEqual([T1, T2]);
  });

  it('tells a changed travel’s watchers to reload it, with its new cards', async () => {
    feed.travelChanged(T2);
    feed.travelChanged(UNWATCHED);
    await settle();
    expect(loads).toEqual([[T2]]);
    expect(emitted.map((e) => [e.event, e.payload])).toEqual([
      [`travel-logs:${T2}`, [{ name: `cards of ${T2}` }]],
      [`travel-changed:${T2}`, { travelId: T2 }],
    ]);
  });

  it('sends nothing after close', async () => {
    feed.readingsStored(batch(device(T1, 1)));
    await feed.close();
    await settle();
    expect(emitted).toEqual([]);
  });
});
