import { promises as dns } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isAddressLiteral, isInternalName, isPublicAddress } from './address-policy';

/**
 * Who chose the destination of a request:
 * - `public`: a user, a browser, a remote server (push endpoints, webhooks, redirect targets) — every check applies;
 * - `operator`: the server's own settings (SMS_API_URL, GEOCODER_URL, a TSA's URL…), which may well be on a private
 *   network and are trusted as addresses; such requests still get the client's timeouts, size cap and redirect rule.
 */
export type OutgoingTrust = 'public' | 'operator';

export interface OutgoingRequestOptions {
  method?: string;
  headers?: Record<string, string | number>;
  body?: string | Uint8Array;
  /** Whole request, connection to last byte. Default: the client's. */
  timeoutMs?: number;
  /** Larger answers are cut and the request fails (`too-large`). Default: the client's. */
  maxResponseBytes?: number;
  /** Default `public`. */
  trust?: OutgoingTrust;
  /**
   * Redirects to follow (default 0: a 3xx answer fails with `redirect`). Each target is checked again as a `public`
   * destination, whoever chose the first one: a remote server chose it.
   */
  maxRedirects?: number;
}

export interface OutgoingResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  ok: boolean;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  /** The body as JSON, or undefined when it is not JSON. */
  json(): unknown;
}

export type OutgoingFailure = 'refused' | 'timeout' | 'too-large' | 'network' | 'redirect';

/** Said to users whatever went wrong: the network's own error text would tell them about our network (ADR 55). */
export const OUTGOING_FAILED_MESSAGE = 'Não foi possível se comunicar com o serviço externo.';

/**
 * A request that did not complete. `message` is the generic pt-BR text, safe to show anyone; `detail` says what
 * happened (address refused, connection refused, timeout…) and is for the server's log only.
 */
export class OutgoingRequestError extends Error {
  constructor(
    readonly reason: OutgoingFailure,
    readonly detail: string,
  ) {
    super(OUTGOING_FAILED_MESSAGE);
    this.name = 'OutgoingRequestError';
  }
}

/** Resolves a host name to every address it has (DNS, /etc/hosts); replaceable in tests. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface OutgoingClientOptions {
  /** OUTGOING_ALLOW_PRIVATE: public destinations may be private/loopback addresses, over http, on any port (tests, development). */
  allowPrivate: boolean;
  /** OUTGOING_ALLOWED_PORTS: ports a public destination may use (default 443 only). */
  allowedPorts: number[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  resolve?: Resolver;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * The one way the server calls out over HTTP(S) (ADR 55): web push, the geocoder, the postal-code lookup, SMS and
 * WhatsApp providers, and for webhooks and the TSA. For a `public` destination it refuses, before connecting:
 * schemes other than https, credentials in the URL, ports not in OUTGOING_ALLOWED_PORTS, names of this machine or
 * its network (localhost, *.local, *.internal, single labels), and any host that is, or resolves to, an address that
 * is not public unicast (every form: IPv4-mapped and -compatible IPv6, hex/octal/decimal IPv4, NAT64, 6to4…; see
 * address-policy). The name is resolved once and the connection is made to the address that was checked (no DNS
 * rebinding between check and connect); TLS still verifies the certificate for the name. Redirects are refused
 * unless asked for, and then re-checked hop by hop. Every request has a deadline and a cap on the answer's size.
 *
 * Errors are `OutgoingRequestError`: show users its `message` (generic pt-BR), log its `detail`.
 *
 * @example
 * const res = await services.outgoing.request(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
 * if (!res.ok) …
 */
export class OutgoingClient {
  private readonly resolve: Resolver;

  constructor(private readonly options: OutgoingClientOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Whether a URL may be a `public` destination, by the URL alone (for input checks; DNS is checked at sending). */
  urlAllowed(input: string | URL): boolean {
    try {
      this.checkUrl(typeof input === 'string' ? new URL(input) : input);
      return true;
    } catch {
      return false;
    }
  }

  /** The full check of a `public` destination, DNS included, without sending anything (e.g. when a URL is saved). */
  async destinationAllowed(input: string | URL): Promise<boolean> {
    try {
      await this.checkDestination(typeof input === 'string' ? new URL(input) : input);
      return true;
    } catch {
      return false;
    }
  }

  async request(input: string | URL, options: OutgoingRequestOptions = {}): Promise<OutgoingResponse> {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : input;
    } catch {
      throw new OutgoingRequestError('refused', `not a URL: ${String(input).slice(0, 200)}`);
    }
    const trust = options.trust ?? 'public';
    const target = trust === 'public' ? await this.checkDestination(url) : null;
    const response = await this.send(url, target, options);
    if (!REDIRECTS.has(response.status)) return response;
    const location = response.headers.location;
    const redirectsLeft = options.maxRedirects ?? 0;
    if (redirectsLeft <= 0 || !location) throw new OutgoingRequestError('redirect', `${url.origin} answered ${response.status} to ${String(location).slice(0, 200)}`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutgoingRequestError('redirect', `${url.origin} redirected to an invalid URL`);
    }
    const keepsBody = response.status === 307 || response.status === 308;
    return this.request(next, {
      ...options,
      trust: 'public',
      maxRedirects: redirectsLeft - 1,
      ...(keepsBody ? {} : { method: 'GET', body: undefined }),
    });
  }

  /** The URL checks of a public destination (scheme, credentials, port, literal address or name). */
  private checkUrl(url: URL): void {
    const refuse = (why: string) => {
      throw new OutgoingRequestError('refused', `${why}: ${url.protocol}//${url.host}`);
    };
    if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('scheme not allowed');
    if (url.username || url.password) refuse('credentials in the URL');
    if (this.options.allowPrivate) return;
    if (url.protocol !== 'https:') refuse('plain http not allowed');
    const port = Number(url.port || 443);
    if (!this.options.allowedPorts.includes(port)) refuse(`port ${port} not allowed`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isAddressLiteral(host)) {
      if (!isPublicAddress(host)) refuse('address not public');
    } else if (isInternalName(host)) {
      refuse('internal host name');
    }
  }

  /** Checks a public destination and resolves its name; the connection will go to the address returned. */
  private async checkDestination(url: URL): Promise<LookupAddress | null> {
    this.checkUrl(url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isAddressLiteral(host)) return null;
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (err) {
      // Any address may be reached (tests, local setups): a name an offline machine cannot resolve is the connection's
      // business then, not a refusal (a push subscription saved offline).
      if (this.options.allowPrivate) return null;
      throw new OutgoingRequestError('network', `${host} did not resolve: ${(err as Error).message}`);
    }
    if (addresses.length === 0) {
      if (this.options.allowPrivate) return null;
      throw new OutgoingRequestError('network', `${host} has no address`);
    }
    // Every address must be public: a name that mixes one public and one internal address is refused outright.
    const internal = addresses.find((a) => !isPublicAddress(a.address));
    if (internal && !this.options.allowPrivate) throw new OutgoingRequestError('refused', `${host} resolves to ${internal.address}, not a public address`);
    return addresses[0]!;
  }

  private send(url: URL, pinned: LookupAddress | null, options: OutgoingRequestOptions): Promise<OutgoingResponse> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = options.maxResponseBytes ?? this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<OutgoingResponse>((resolve, reject) => {
      let settled = false;
      const fail = (error: OutgoingRequestError) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        request.destroy();
        reject(error);
      };
      const request = transport.request(
        url,
        {
          method: options.method ?? 'GET',
          headers: options.headers,
          // The checked address, not a second resolution: nothing can change between the check and the connection.
          ...(pinned
            ? {
                lookup: ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) =>
                  lookupOptions.all ? callback(null, [pinned]) : callback(null, pinned.address, pinned.family)) as never,
              }
            : {}),
        },
        (response) => {
          const declared = Number(response.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) return fail(new OutgoingRequestError('too-large', `${url.origin} declared ${declared} bytes (cap ${maxBytes})`));
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) return fail(new OutgoingRequestError('too-large', `${url.origin} sent more than ${maxBytes} bytes`));
            chunks.push(chunk);
          });
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(deadline);
            const body = Buffer.concat(chunks);
            const status = response.statusCode ?? 0;
            resolve({
              url: url.toString(),
              status,
              ok: status >= 200 && status < 300,
              headers: response.headers,
              body,
              text: () => body.toString('utf8'),
              json: () => {
                try {
                  return JSON.parse(body.toString('utf8')) as unknown;
                } catch {
                  return undefined;
                }
              },
            });
          });
          response.on('error', (err) => fail(new OutgoingRequestError('network', `${url.origin}: ${err.message}`)));
        },
      );
      const deadline = setTimeout(() => fail(new OutgoingRequestError('timeout', `${url.origin} did not answer within ${timeoutMs} ms`)), timeoutMs);
      request.on('error', (err) => fail(new OutgoingRequestError('network', `${url.origin}: ${err.message}`)));
      request.end(options.body);
    });
  }
}
