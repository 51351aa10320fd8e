import { type TravelDevice, type z, type TravelLocationEvent } from '@sentinela/contract';
import type { ReadingsStoredEvent } from './event-bus';

type LocationEvent = z.infer<typeof TravelLocationEvent>;

/** Travels emitted per turn of the event loop within a flush. */
const EMIT_SLICE = 50;

/**
 * What a stored batch means for one travel's watchers: plain values, so that it can cross to the other API
 * processes (Redis) as it is (ADR 47).
 */
export interface TravelUpdate {
  travelId: string;
  mac: string;
  /** The reading's time, epoch milliseconds. */
  at: number;
  lat: number | null;
  lng: number | null;
  /** The batch moved the device. */
  moved: boolean;
}

/** The travels' part of a stored batch. */
export function travelUpdatesOf(event: ReadingsStoredEvent): TravelUpdate[] {
  const updates: TravelUpdate[] = [];
  for (const d of event.devices) {
    if (d.travelId) updates.push({ travelId: d.travelId, mac: d.mac, at: d.lastSyncAt.getTime(), lat: d.lat, lng: d.lng, moved: d.moved });
  }
  return updates;
}

/** Whether a value received from another process is a list of TravelUpdate (Redis is ours, but typos are not). */
export function isTravelUpdates(value: unknown): value is TravelUpdate[] {
  return (
    Array.isArray(value) &&
    value.every(
      (u: Partial<TravelUpdate> | null) =>
        typeof u === 'object' && u !== null && typeof u.travelId === 'string' && typeof u.mac === 'string' && typeof u.at === 'number' && typeof u.moved === 'boolean' &&
        (u.lat === null || typeof u.lat === 'number') && (u.lng === null || typeof u.lng === 'number'),
    )
  );
}

/**
 * One travel's part of a flush, sent as one message per socket where it can be (ADR 47): the cards (null: not
 * due, or not loaded), the newest position (null: nobody moved), and whether the travel itself changed.
 */
export interface TravelFrame {
  travelId: string;
  cards: TravelDevice[] | null;
  location: LocationEvent | null;
  changed: boolean;
}

export interface TravelFeedOptions {
  /** The device cards of these travels: one query for all of them. */
  loadCards(travelIds: string[]): Promise<Map<string, TravelDevice[]>>;
  /** Whether anyone may be listening to a travel (on this process: every process runs its own feed). */
  watched(travelId: string): boolean;
  /** Sends one travel's frame to its rooms. */
  send(frame: TravelFrame): void;
  /** At most one emit per travel and topic in this window; later changes within it are coalesced. */
  intervalMs: number;
  log: { error(obj: unknown, msg: string): void };
  now?: () => number;
}

interface Pending {
  cards: boolean;
  /** The travel itself changed: its watchers reload it (the cards alone do not carry status or places). */
  changed: boolean;
  location: LocationEvent | null;
  locationMs: number;
}

/**
 * The live feed of travels (T6): turns stored batches into `travel-logs:{id}` (the whole device list, with the
 * newest position beside it when a device moved) and `travel-location-logs:{id}` (the newest position, for
 * position-only watchers) for the travels that someone watches.
 *
 * - The device list is read from the database once per travel per flush, for all travels of the flush in one
 *   query, and broadcast to the room: never per socket, never per reading.
 * - A travel is sent at once when it was quiet for `intervalMs`; changes arriving sooner wait for the end of
 *   that window and go as one message, so a gateway's burst (or a backlog) does not flood the clients.
 * - One flush runs at a time; what arrives meanwhile goes in the next one, right after.
 * - Each API process runs its own feed for its own sockets; the other processes' batches reach it as
 *   `travelUpdates` (ADR 47).
 */
export class TravelFeed {
  private readonly pending = new Map<string, Pending>();
  private readonly lastSent = new Map<string, number>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private immediate: NodeJS.Immediate | undefined;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: TravelFeedOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** After a batch was stored: its travels in progress, with the newest position when a device moved. */
  readingsStored(event: ReadingsStoredEvent): void {
    this.travelUpdates(travelUpdatesOf(event));
  }

  /** A batch's travel updates, stored by this process or by another one. */
  travelUpdates(updates: TravelUpdate[]): void {
    for (const update of updates) {
      const travelId = update.travelId;
      if (!this.options.watched(travelId)) continue;
      const entry = this.entry(travelId);
      entry.cards = true;
      if (update.moved && update.lat !== null && update.lng !== null) {
        if (!entry.location || update.at >= entry.locationMs) {
          entry.location = { travelId, last_position: [update.lat, update.lng], mac: update.mac, createdAt: new Date(update.at).toISOString() };
          entry.locationMs = update.at;
        }
      }
    }
    this.schedule();
  }

  /** After a travel changed (status, devices, a card's name or limits): its watchers reload it and get the new cards. */
  travelChanged(travelId: string): void {
    if (!this.options.watched(travelId)) return;
    const entry = this.entry(travelId);
    entry.cards = true;
    entry.changed = true;
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    await this.running;
  }

  private entry(travelId: string): Pending {
    let entry = this.pending.get(travelId);
    if (!entry) {
      entry = { cards: false, changed: false, location: null, locationMs: -Infinity };
      this.pending.set(travelId, entry);
    }
    return entry;
  }

  private dueAt(travelId: string): number {
    return (this.lastSent.get(travelId) ?? -Infinity) + this.options.intervalMs;
  }

  /** Flushes now (next turn of the loop, gathering this tick's events) what is due, and later what is not yet. */
  private schedule(): void {
    if (this.closed || this.running || this.pending.size === 0) return;
    const now = this.now();
    let due = Infinity;
    for (const travelId of this.pending.keys()) due = Math.min(due, this.dueAt(travelId));
    if (due <= now) {
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        void this.flush();
      });
    } else if (due < this.timerAt) {
      clearTimeout(this.timer);
      this.timerAt = due;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.timerAt = Infinity;
        void this.flush();
      }, Math.ceil(due - now));
    }
  }

  private async flush(): Promise<void> {
    if (this.closed || this.running) return;
    const now = this.now();
    const ready: [string, Pending][] = [];
    for (const [travelId, entry] of this.pending) if (this.dueAt(travelId) <= now) ready.push([travelId, entry]);
    for (const [travelId] of ready) {
      this.pending.delete(travelId);
      this.lastSent.set(travelId, now);
    }
    // Travels quiet for a whole window need no memory: they will be sent at once next time.
    for (const [travelId, at] of this.lastSent) if (at + this.options.intervalMs <= now && !this.pending.has(travelId)) this.lastSent.delete(travelId);

    if (ready.length > 0) {
      this.running = this.send(ready);
      await this.running;
      this.running = null;
    }
    this.schedule();
  }

  private async send(ready: [string, Pending][]): Promise<void> {
    let cards: Map<string, TravelDevice[]> | null = null;
    const wanted = ready.filter(([, entry]) => entry.cards).map(([travelId]) => travelId);
    if (wanted.length > 0) {
      try {
        cards = await this.options.loadCards(wanted);
      } catch (err) {
        this.options.log.error({ err, travels: wanted.length }, 'live travel cards not loaded');
      }
    }
    for (let i = 0; i < ready.length; i++) {
      // Each room's message is written to every socket in it at once (a system call per socket): let the
      // event loop breathe between slices, so a large flush does not hold back ingestion answers.
      if (i > 0 && i % EMIT_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const [travelId, entry] = ready[i]!;
      this.options.send({ travelId, cards: entry.cards && cards ? (cards.get(travelId) ?? []) : null, location: entry.location, changed: entry.changed });
    }
  }
}
