import type { IncomingMessage } from 'node:http';
import type { RealtimeServer } from './socket-auth';
import { clientAddress } from './socket-auth';

export const ADDRESS_CAP_MESSAGE = 'Muitas conexões abertas a partir deste endereço.';

/**
 * Live-channel connections open at once per client address (issue 9): one address cannot hold the process's
 * sockets (and their memory and timers) for itself. New handshakes over the cap are refused in `allowRequest`,
 * before any work; handshakes that raced past the check are closed when they complete.
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly trustProxy: boolean,
  ) {}

  /** Socket.IO's `allowRequest` (called for new handshakes only). */
  readonly allowRequest = (req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void): void => {
    const full = (this.open.get(this.addressOf(req)) ?? 0) >= this.max;
    callback(full ? ADDRESS_CAP_MESSAGE : null, !full);
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
