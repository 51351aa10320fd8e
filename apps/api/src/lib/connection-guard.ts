import { readdirSync, readFileSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { ThrottledLog } from './throttled-log';

interface Logger {
  warn(obj: unknown, msg: string): void;
}

export interface ConnectionGuardOptions {
  /** Connections open at once per client address, across every watched listener; 0: no cap. */
  perAddress: number;
  /** Connections open at once across every watched listener; 0: no cap. */
  maxTotal: number;
  log: Logger;
}

/**
 * The one gate of the process's raw listeners (HTTP — Socket.IO rides it —, MQTT, MQTT over TLS; issue 21, ADR 51).
 * Each connection is admitted or closed the moment it is accepted, before any protocol work (no HTTP parser, no TLS
 * handshake, no MQTT session): at most `perAddress` open at once per client address, so a few addresses cannot hold
 * the process's file descriptors for themselves, and at most `maxTotal` in all, so that connections never take the
 * descriptors the database pool, report files and outgoing requests need. A refused connection is reset (no
 * TIME_WAIT left on the server) and logged, at most a line per kind every ten seconds.
 *
 * Accept errors (EMFILE, ENFILE, ENOBUFS) are logged and survived on every watched listener: an 'error' event
 * without a listener would throw and end the process.
 *
 * Addresses are counted per IPv4 address and per IPv6 /64 (one subscriber's whole prefix: an IPv6 client picks among
 * 2^64 addresses of its own at will); IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export class ConnectionGuard {
  private readonly open = new Map<string, number>();
  private total = 0;
  private readonly warnings: ThrottledLog;

  constructor(private readonly options: ConnectionGuardOptions) {
    this.warnings = new ThrottledLog(options.log);
  }

  /**
   * Admits or refuses every connection `server` accepts (before the server's own connection handling), and keeps its
   * accept errors from ending the process. `perAddress: false` for a listener whose peers are not the clients (HTTP
   * behind a trusted proxy): only the total applies there.
   */
  watch(server: Server, listener: string, options: { perAddress: boolean } = { perAddress: true }): void {
    server.prependListener('connection', (socket: Socket) => {
      this.admit(socket, listener, options.perAddress);
    });
    // Listen errors (EADDRINUSE) belong to whoever calls listen(); from then on, errors are the accepts'.
    server.once('listening', () => {
      server.on('error', (err: NodeJS.ErrnoException) => {
        this.warnings.warn(`accept:${listener}:${err.code ?? 'error'}`, { listener, code: err.code, err: err.message }, 'connection not accepted; the listener goes on');
      });
    });
  }

  /** Connections open now, in all and from the address of `remoteAddress` (for tests and diagnostics). */
  counts(remoteAddress?: string): { total: number; fromAddress: number } {
    return { total: this.total, fromAddress: remoteAddress === undefined ? 0 : (this.open.get(addressKey(remoteAddress)) ?? 0) };
  }

  private admit(socket: Socket, listener: string, perAddress: boolean): void {
    const remote = socket.remoteAddress;
    // Gone before it was looked at (reset by the peer): nothing to serve.
    if (remote === undefined) return void socket.destroy();
    const { maxTotal } = this.options;
    if (maxTotal > 0 && this.total >= maxTotal) {
      this.refuse(socket);
      this.warnings.warn(`max:${listener}`, { listener, open: this.total, max: maxTotal }, 'connection refused: the process holds its maximum of connections (CONNECTIONS_MAX)');
      return;
    }
    const key = addressKey(remote);
    const fromAddress = this.open.get(key) ?? 0;
    const cap = perAddress ? this.options.perAddress : 0;
    if (cap > 0 && fromAddress >= cap) {
      this.refuse(socket);
      this.warnings.warn(`address:${listener}`, { listener, address: key, open: fromAddress, max: cap }, 'connection refused: its address holds its maximum of connections (CONNECTIONS_PER_ADDRESS)');
      return;
    }
    this.open.set(key, fromAddress + 1);
    this.total++;
    socket.once('close', () => {
      this.total--;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    });
  }

  private refuse(socket: Socket): void {
    // A reset rather than a FIN: the refusing side of a closed connection would otherwise hold it in TIME_WAIT.
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
  }
}

/** The key a client address is counted under: the IPv4 address, or the /64 of an IPv6 one. */
export function addressKey(remoteAddress: string): string {
  const address = remoteAddress.startsWith('::ffff:') && remoteAddress.includes('.') ? remoteAddress.slice(7) : remoteAddress;
  if (!address.includes(':')) return address;
  const zoneless = address.split('%')[0]!;
  const [head = '', tail] = zoneless.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}

/**
 * CONNECTIONS_MAX when unset: what the process's soft limit of open files (RLIMIT_NOFILE, read from /proc on Linux)
 * leaves once the descriptors open now and a reserve of 1,024 for everything else that needs one later (database
 * connections, PGlite's data files — it keeps a few hundred open —, report files, outgoing requests) are set aside;
 * never less than a quarter of the limit, so a small limit still serves someone (and is worth a warning at start).
 * 0 (no cap) where the limit cannot be read.
 */
export function automaticConnectionsMax(proc = '/proc/self'): { max: number; fileLimit: number | null } {
  let soft: number;
  let inUse: number;
  try {
    const line = readFileSync(`${proc}/limits`, 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const value = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (!value || value === 'unlimited') return { max: 0, fileLimit: null };
    soft = Number(value);
    inUse = readdirSync(`${proc}/fd`).length;
  } catch {
    return { max: 0, fileLimit: null };
  }
  if (!Number.isFinite(soft) || soft <= 0) return { max: 0, fileLimit: null };
  return { max: Math.max(Math.floor(soft / 4), soft - inUse - 1024), fileLimit: soft };
}
