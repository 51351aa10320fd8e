import { checkMeasure, LOCATION_MESSAGES, z, type GeocodeResult } from '@sentinela/contract';
import { AppError, RetryLaterError } from '../../lib/errors';
import { FixedWindowLimiter } from '../../realtime/fixed-window';

export interface GeocoderOptions {
  /** Base address of a Nominatim-compatible server (…/search), or undefined: no address search. */
  url: string | undefined;
  timeoutMs: number;
  /** Searches sent to the server per minute by this process (Nominatim's public policy: one a second). */
  upstreamPerMinute: number;
  /** Searches one user may ask per minute (answered from the cache or not). */
  perUserPerMinute: number;
  /** Sent as User-Agent and Referer, as Nominatim's usage policy asks. */
  publicUrl: string;
  now?: () => number;
}

/** One answer of Nominatim's /search (format jsonv2): coordinates come as text. */
const NominatimPlace = z.object({ display_name: z.string(), lat: z.string(), lon: z.string() });

const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const CACHE_MAX_ENTRIES = 1000;
const RESULTS = 5;

/**
 * Address search for the Locais screen, through the server so that the browser never calls a third party (the CSP
 * stays 'self') and the geocoder's usage policy is kept for everyone at once: a per-user limit, a per-process
 * limit on what reaches the geocoder, a day's cache of answers, and a timeout. Results are Brazilian places.
 */
export class GeocoderService {
  private readonly cache = new Map<string, { at: number; results: GeocodeResult[] }>();
  private readonly inFlight = new Map<string, Promise<GeocodeResult[]>>();
  private readonly upstream: FixedWindowLimiter;
  private readonly perUser: FixedWindowLimiter;
  private readonly now: () => number;

  constructor(private readonly options: GeocoderOptions) {
    this.now = options.now ?? (() => Date.now());
    this.upstream = new FixedWindowLimiter(options.upstreamPerMinute, 60_000, this.now);
    this.perUser = new FixedWindowLimiter(options.perUserPerMinute, 60_000, this.now);
  }

  get enabled(): boolean {
    return this.options.url !== undefined;
  }

  async search(userId: string, query: string): Promise<GeocodeResult[]> {
    // Not configured is not a failure of the server: this deployment has no such search (the form says so).
    if (!this.options.url) throw new AppError('NOT_FOUND', LOCATION_MESSAGES.geocoderOff);
    if (!this.perUser.take(userId)) throw new RetryLaterError('TOO_MANY_REQUESTS', LOCATION_MESSAGES.geocoderBusy, this.perUser.retryAfterSeconds());
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
      if (!this.upstream.take('all')) throw new RetryLaterError('TOO_MANY_REQUESTS', LOCATION_MESSAGES.geocoderBusy, this.upstream.retryAfterSeconds());
      pending = this.ask(this.options.url, query).finally(() => this.inFlight.delete(key));
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

  private async ask(base: string, query: string): Promise<GeocodeResult[]> {
    const url = new URL(base.replace(/\/+$/, '') + '/search');
    url.search = new URLSearchParams({ q: query, format: 'jsonv2', limit: String(RESULTS), countrycodes: 'br', 'accept-language': 'pt-BR' }).toString();
    let body: unknown;
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': `Sentinela (${this.options.publicUrl})`, referer: this.options.publicUrl },
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
      if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
      body = await response.json();
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
