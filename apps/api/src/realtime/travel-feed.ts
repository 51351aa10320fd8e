import { travelTopics, type TravelDevice, type z, type TravelLocationEvent } from '@sentinela/contract';
import type { ReadingsStoredEvent } from './event-bus';

type LocationEvent = z.infer<typeof TravelLocationEvent>;

/** Travels emitted per turn of the event loop within a flush. */
const EMIT_SLICE = 50;

export interface TravelFeedOptions {
  /** The device cards of these travels: one query for all of them. */
  loadCards(travelIds: string[]): Promise<Map<string, TravelDevice[]>>;
  /** Whether anyone may be listening to a travel (always true when other processes share the rooms). */
  watched(travelId: string): boolean;
  /** Sends one event to a travel's room. */
  emit(travelId: string, event: string, payload: unknown): void;
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
 * The live feed of travels (T6): turns stored batches into `travel-logs:{id}` (the whole device list) and
 * `travel-location-logs:{id}` (the newest position) for the travels that someone watches.
 *
 * - The device list is read from the database once per travel per flush, for all travels of the flush in one
 *   query, and broadcast to the room: never per socket, never per reading.
 * - A travel is sent at once when it was quiet for `intervalMs`; changes arriving sooner wait for the end of
 *   that window and go as one message, so a gateway's burst (or a backlog) does not flood the clients.
 * - One flush runs at a time; what arrives meanwhile goes in the next one, right after.
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
    for (const device of event.devices) {
      const travelId = device.travelId;
      if (!travelId || !this.options.watched(travelId)) continue;
      const entry = this.entry(travelId);
      entry.cards = true;
      if (device.moved && device.lat !== null && device.lng !== null) {
        const ms = device.lastSyncAt.getTime();
        if (!entry.location || ms >= entry.locationMs) {
          entry.location = { travelId, last_position: [device.lat, device.lng], mac: device.mac, createdAt: device.lastSyncAt.toISOString() };
          entry.locationMs = ms;
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
      // Each room's messages are written to every socket in it at once (a system call per socket): let the
      // event loop breathe between slices, so a large flush does not hold back ingestion answers.
      if (i > 0 && i % EMIT_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const [travelId, entry] = ready[i]!;
      if (entry.cards && cards) this.options.emit(travelId, travelTopics.devices(travelId), cards.get(travelId) ?? []);
      if (entry.location) this.options.emit(travelId, travelTopics.location(travelId), entry.location);
      if (entry.changed) this.options.emit(travelId, travelTopics.changed(travelId), { travelId });
    }
  }
}
