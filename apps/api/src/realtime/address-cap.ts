import type { IncomingMessage } from 'node:http';
import type { RealtimeServer } from './socket-auth';
import type { Limit } from '../lib/rate-limits/rate-limits';
import { clientAddress } from './socket-auth';

export const ADDRESS_CAP_MESSAGE = 'Muitas conexões abertas a partir deste endereço.';
export const ADDRESS_RATE_MESSAGE = 'Muitas conexões novas a partir deste endereço. Aguarde um minuto e tente novamente.';

/**
 * Live-channel connections per client address (issue 9): open at once, so one address cannot hold the process's
 * sockets (and their memory and timers) for itself; and new ones per minute, so a socket disconnected for flooding
 * cannot come straight back for another round (each handshake also costs a session lookup). New handshakes over
 * either limit are refused in `allowRequest`, before any work; handshakes that raced past the check are closed when
 * they complete.
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly max: number,
    /** New handshakes per address and minute, shared by every process (ADR 54). */
    private readonly handshakes: Limit,
    private readonly trustProxy: boolean,
  ) {}

  /** Socket.IO's `allowRequest` (called for new handshakes only). */
  readonly allowRequest = (req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void): void => {
    const address = this.addressOf(req);
    if ((this.open.get(address) ?? 0) >= this.max) return callback(ADDRESS_CAP_MESSAGE, false);
    this.handshakes.consume(address).then(
      (answer) => callback(answer.allowed ? null : ADDRESS_RATE_MESSAGE, answer.allowed),
      () => callback(null, true),
    );
  };

  /** Counts the engine's connections from their opening to their close. */
  attach(io: RealtimeServer): void {
    io.engine.on('connection', (raw: { request: IncomingMessage; close(): void; once(event: 'close', listener: () => void): void }) => {
      const address = this.addressOf(raw.request);
      const n = (this.open.get(address) ?? 0) + 1;
      this.open.set(address, n);
      raw.once('close', () => {
        const left = (this.open.get(address) ?? 1) - 1;
        if (left <= 0) this.open.delete(address);
        else this.open.set(address, left);
      });
      if (n > this.max) raw.close();
    });
  }

  private addressOf(req: IncomingMessage): string {
    return clientAddress(req.headers, req.socket.remoteAddress, this.trustProxy);
  }
}
