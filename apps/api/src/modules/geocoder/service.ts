import { checkMeasure, LOCATION_MESSAGES, z, type GeocodeResult } from '@sentinela/contract';
import { AppError, RetryLaterError } from '../../lib/errors';
import type { Limit, LimitQueue, RateLimits } from '../../lib/rate-limits/rate-limits';
import type { OutgoingClient } from '../../lib/outgoing/outgoing-client';

export interface GeocoderOptions {
  /** Base address of a Nominatim-compatible server (…/search), or undefined: no address search. */
  url: string | undefined;
  timeoutMs: number;
  /** Searches sent to the server per minute by all processes together, evenly paced (Nominatim's policy: one a second). */
  upstreamPerMinute: number;
  /** Searches one user may ask per minute (answered from the cache or not). */
  perUserPerMinute: number;
  /** Sent as User-Agent and Referer, as Nominatim's usage policy asks. */
  publicUrl: string;
  rateLimits: RateLimits;
  outgoing: OutgoingClient;
  now?: () => number;
}

/** Searches that may wait for their turn to reach the geocoder; one more is told to try again. */
const UPSTREAM_MAX_WAITING = 5;

/** The setting's searches a minute as an even pace: 60 → one a second, 30 → one every 2 s, 120 → two a second. */
function upstreamPace(perMinute: number) {
  return perMinute >= 60 ? { points: Math.floor(perMinute / 60), windowSeconds: 1 } : { points: 1, windowSeconds: Math.ceil(60 / perMinute) };
}

/** One answer of Nominatim's /search (format jsonv2): coordinates come as text. */
const NominatimPlace = z.object({ display_name: z.string(), lat: z.string(), lon: z.string() });

const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const CACHE_MAX_ENTRIES = 1000;
const RESULTS = 5;

/**
 * Address search for the Locais screen, through the server so that the browser never calls a third party (the CSP
 * stays 'self') and the geocoder's usage policy is kept for everyone at once: a per-user limit, a queue that
 * paces what reaches the geocoder (one search a second by default, across processes), a day's cache of answers, and a timeout. Results are Brazilian places.
 */
export class GeocoderService {
  private readonly cache = new Map<string, { at: number; results: GeocodeResult[] }>();
  private readonly inFlight = new Map<string, Promise<GeocodeResult[]>>();
  private readonly upstream: LimitQueue;
  private readonly perUser: Limit;
  private readonly now: () => number;

  constructor(private readonly options: GeocoderOptions) {
    this.now = options.now ?? (() => Date.now());
    this.upstream = options.rateLimits.queue({ name: 'geocoder-upstream', ...upstreamPace(options.upstreamPerMinute) }, UPSTREAM_MAX_WAITING);
    this.perUser = options.rateLimits.limit({ name: 'geocoder-user', points: options.perUserPerMinute, windowSeconds: 60 });
  }

  get enabled(): boolean {
    return this.options.url !== undefined;
  }

  async search(userId: string, query: string): Promise<GeocodeResult[]> {
    // Not configured is not a failure of the server: this deployment has no such search (the form says so).
    if (!this.options.url) throw new AppError('NOT_FOUND', LOCATION_MESSAGES.geocoderOff);
    const allowed = await this.perUser.consume(userId);
    if (!allowed.allowed) throw new RetryLaterError('TOO_MANY_REQUESTS', LOCATION_MESSAGES.geocoderBusy, allowed.retryAfterSeconds);
    const key = query.toLocaleLowerCase('pt-BR').replace(/\s+/g, ' ');
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.at < CACHE_TTL_MS) {
      // Most recently used last: the oldest entry is the first to go when the cache is full.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached.results;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      const url = this.options.url;
      pending = this.askInTurn(url, query).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const results = await pending;
    this.remember(key, results);
    return results;
  }

  private remember(key: string, results: GeocodeResult[]): void {
    this.cache.delete(key);
    this.cache.set(key, { at: this.now(), results });
    while (this.cache.size > CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }

  /** Waits for the shared pace, then asks; too many waiting already: try again in a few seconds. */
  private async askInTurn(base: string, query: string): Promise<GeocodeResult[]> {
    if (!(await this.upstream.turn())) throw new RetryLaterError('TOO_MANY_REQUESTS', LOCATION_MESSAGES.geocoderBusy, UPSTREAM_MAX_WAITING);
    return this.ask(base, query);
  }

  private async ask(base: string, query: string): Promise<GeocodeResult[]> {
    const url = new URL(base.replace(/\/+$/, '') + '/search');
    url.search = new URLSearchParams({ q: query, format: 'jsonv2', limit: String(RESULTS), countrycodes: 'br', 'accept-language': 'pt-BR' }).toString();
    let body: unknown;
    try {
      // GEOCODER_URL is the operator's (trusted as an address); the client bounds time and size, refuses redirects.
      const response = await this.options.outgoing.request(url, {
        trust: 'operator',
        headers: { accept: 'application/json', 'user-agent': `Sentinela (${this.options.publicUrl})`, referer: this.options.publicUrl },
        timeoutMs: this.options.timeoutMs,
        maxResponseBytes: 256 * 1024,
      });
      if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
      body = response.json();
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', LOCATION_MESSAGES.geocoderFailed);
    }
    const places = z.array(NominatimPlace).safeParse(body);
    if (!places.success) throw new AppError('SERVICE_UNAVAILABLE', LOCATION_MESSAGES.geocoderFailed);
    const results: GeocodeResult[] = [];
    for (const place of places.data.slice(0, RESULTS)) {
      const latitude = Number(place.lat);
      const longitude = Number(place.lon);
      // What a third party sends is checked like any input: a place the map cannot show is left out.
      if (checkMeasure('lat', latitude) !== 'ok' || checkMeasure('lng', longitude) !== 'ok') continue;
      // eslint-disable-next-line no-control-regex -- a third party's text loses its control characters
      results.push({ display_name: place.display_name.replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ').trim().slice(0, 300), latitude, longitude });
    }
    return results;
  }
}
