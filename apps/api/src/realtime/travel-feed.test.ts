import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TravelDevice } from '@sentinela/contract';
import type { DeviceLiveState, ReadingsStoredEvent } from './event-bus';
import { isTravelUpdates, TravelFeed, travelUpdatesOf } from './travel-feed';
import { sendTravelFrame } from './travel-frames';

/** The feed's coalescing and its frames (ADR 47), with the clock and timers under the test's control. */
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
/** What reached the rooms: one entry per Socket.IO message. */
let emitted: { travelId: string; rooms: string[]; event: string; payload: unknown; position?: unknown }[];
/** Rooms of position-only codes with sockets on this process (the full rooms of watched travels always have some). */
let positionWatchers: Set<string>;
let feed: TravelFeed;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000 });
  loads = [];
  emitted = [];
  positionWatchers = new Set();
  feed = new TravelFeed({
    loadCards: async (ids) => {
      loads.push([...ids]);
      return new Map(ids.map((id) => [id, [{ name: `cards of ${id}` } as unknown as TravelDevice]]));
    },
    watched: (id) => id !== UNWATCHED,
    send: (frame) =>
      sendTravelFrame(
        {
          to: (rooms) => ({ emit: (event, payload, ...position) => emitted.push({ travelId: frame.travelId, rooms, event, payload, ...(position.length > 0 ? { position: position[0] } : {}) }) }),
          hasSockets: (room) => !room.startsWith('travel-position:') || positionWatchers.has(room),
        },
        frame,
      ),
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

  it('sends the newest position of a travel, only when a device moved, beside the cards and on its own topic', async () => {
    feed.readingsStored(batch(device(T1, 5_000, { lat: -23, lng: -46, moved: true }), device(T1, 9_000, { lat: -22, lng: -45, moved: true, mac: 'B' }), device(T2, 9_000, { lat: -20, lng: -44 })));
    await settle();
    const position = { travelId: T1, last_position: [-22, -45], mac: 'B', createdAt: new Date(9_000).toISOString() };
    expect(emitted).toEqual([
      { travelId: T1, rooms: [`travel:${T1}`], event: `travel-logs:${T1}`, payload: [{ name: `cards of ${T1}` }], position },
      // A client written from the documents moves its marker on travel-location-logs only (spec 001 "Live updates").
      { travelId: T1, rooms: [`travel:${T1}`], event: `travel-location-logs:${T1}`, payload: position },
      { travelId: T2, rooms: [`travel:${T2}`], event: `travel-logs:${T2}`, payload: [{ name: `cards of ${T2}` }] },
    ]);
  });

  it('sends position-only watchers the position alone, never the cards', async () => {
    positionWatchers.add(`travel-position:${T1}`);
    feed.readingsStored(batch(device(T1, 5_000, { lat: -23, lng: -46, moved: true }), device(T2, 5_000)));
    await settle();
    const position = { travelId: T1, last_position: [-23, -46], mac: 'C3:00:00:00:01:01', createdAt: new Date(5_000).toISOString() };
    expect(emitted.filter((e) => e.rooms.includes(`travel-position:${T1}`))).toEqual([{ travelId: T1, rooms: [`travel:${T1}`, `travel-position:${T1}`], event: `travel-location-logs:${T1}`, payload: position }]);
    expect(emitted.filter((e) => e.rooms.includes(`travel-position:${T1}`) && e.event.startsWith('travel-logs:'))).toEqual([]);
    // A travel nobody follows by code: no message encoded for its empty room.
    expect(emitted.filter((e) => e.travelId === T2).map((e) => e.rooms)).toEqual([[`travel:${T2}`]]);
  });

  it('sends the position on its own topic when the cards could not be read', async () => {
    const failing = new TravelFeed({
      loadCards: () => Promise.reject(new Error('database down')),
      watched: () => true,
      send: (frame) => sendTravelFrame({ to: (rooms) => ({ emit: (event, payload) => emitted.push({ travelId: frame.travelId, rooms, event, payload }) }), hasSockets: () => true }, frame),
      intervalMs: 100,
      log: { error: () => {} },
      now: () => Date.now(),
    });
    failing.readingsStored(batch(device(T1, 5_000, { lat: -23, lng: -46, moved: true })));
    await settle();
    await failing.close();
    expect(emitted.map((e) => [e.rooms, e.event])).toEqual([[[`travel:${T1}`, `travel-position:${T1}`], `travel-location-logs:${T1}`]]);
  });

  it('takes the travel updates of another process as its own batches', async () => {
    const updates = travelUpdatesOf(batch(device(T1, 7_000, { lat: -23, lng: -46, moved: true }), device(null, 7_000)));
    // Through Redis they are plain values: what crosses is what arrives.
    const crossed: unknown = JSON.parse(JSON.stringify(updates));
    expect(isTravelUpdates(crossed)).toBe(true);
    expect(isTravelUpdates([{ travelId: T1 }])).toBe(false);
    feed.travelUpdates(crossed as typeof updates);
    await settle();
    const position = { travelId: T1, last_position: [-23, -46], mac: 'C3:00:00:00:01:01', createdAt: new Date(7_000).toISOString() };
    expect(emitted).toEqual([
      { travelId: T1, rooms: [`travel:${T1}`], event: `travel-logs:${T1}`, payload: [{ name: `cards of ${T1}` }], position },
      { travelId: T1, rooms: [`travel:${T1}`], event: `travel-location-logs:${T1}`, payload: position },
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
    expect((emitted[1]!.position as { last_position: number[] }).last_position).toEqual([-23, 4]);
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
    expect(emitted.map((e) => [e.rooms, e.event, e.payload])).toEqual([
      [[`travel:${T2}`], `travel-logs:${T2}`, [{ name: `cards of ${T2}` }]],
      [[`travel:${T2}`], `travel-changed:${T2}`, { travelId: T2 }],
    ]);
  });

  it('sends nothing after close', async () => {
    feed.readingsStored(batch(device(T1, 1)));
    await feed.close();
    await settle();
    expect(emitted).toEqual([]);
  });
});
