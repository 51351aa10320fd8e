import { Duplex } from 'node:stream';

/**
 * Sits between a client's socket (TCP or TLS) and Aedes, and refuses an MQTT packet by its fixed header alone: the
 * header declares the packet's length up front, so a packet above the cap closes the connection before a byte of
 * its payload is read or buffered. Aedes itself would buffer a whole packet (up to 256 MB) before parsing it, and
 * would do so for a client that has not even authenticated.
 *
 * Until the client has authenticated, every packet (in practice, CONNECT) has the small `maxConnectBytes` cap; after
 * that, `maxPacketBytes`. Only the header bytes are looked at (a few per packet), the payload is passed on as is.
 */
export interface PacketLimits {
  /** Largest packet, fixed header included, once the client has authenticated. */
  maxPacketBytes: number;
  /** Largest packet before that (CONNECT: client id, username, password and a will). */
  maxConnectBytes: number;
}

export type RefusalReason = 'packet_too_large' | 'malformed_length';

export interface PacketGuardEvents {
  /** A packet was refused by its header; the connection is being closed. */
  onRefused(reason: RefusalReason, declaredBytes: number): void;
  /** The broker accepted the client's key (see `authenticate`). */
  onAuthenticated?(): void;
}

type State = 'type' | 'length' | 'body';

export class PacketGuard extends Duplex {
  /** Whether the broker has accepted the client's key: from then on the larger cap applies. */
  private authenticated = false;
  private state: State = 'type';
  private remaining = 0;
  private multiplier = 1;
  private lengthBytes = 0;

  constructor(
    readonly socket: Duplex & { remoteAddress?: string | undefined },
    private readonly limits: PacketLimits,
    private readonly events: PacketGuardEvents,
  ) {
    super({ allowHalfOpen: false });
    socket.on('data', (chunk: Buffer) => {
      if (!this.inspect(chunk)) return;
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('close', () => this.destroy());
    socket.on('error', (err) => this.destroy(err));
  }

  /** Called by the broker once it accepted the client's key. */
  authenticate(): void {
    this.authenticated = true;
    this.events.onAuthenticated?.();
  }

  /** Where the client connects from, for the log. */
  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  /** Follows packet boundaries through the chunk; false (and the connection closed) when a packet is refused. */
  private inspect(chunk: Buffer): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const skip = Math.min(this.remaining, chunk.length - i);
        i += skip;
        this.remaining -= skip;
        if (this.remaining === 0) this.state = 'type';
      } else if (this.state === 'type') {
        i++;
        this.state = 'length';
        this.remaining = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else {
        const byte = chunk[i++]!;
        this.remaining += (byte & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes++;
        if (byte & 0x80) {
          // The remaining length takes at most four bytes (MQTT 3.1.1, 2.2.3).
          if (this.lengthBytes === 4) return this.refuse('malformed_length', -1);
          continue;
        }
        const packetBytes = 1 + this.lengthBytes + this.remaining;
        const cap = this.authenticated ? this.limits.maxPacketBytes : this.limits.maxConnectBytes;
        if (packetBytes > cap) return this.refuse('packet_too_large', packetBytes);
        this.state = this.remaining > 0 ? 'body' : 'type';
      }
    }
    return true;
  }

  private refuse(reason: RefusalReason, declaredBytes: number): false {
    this.events.onRefused(reason, declaredBytes);
    this.socket.destroy();
    this.destroy();
    return false;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    if (this.socket.write(chunk)) callback();
    else this.socket.once('drain', () => callback());
  }

  /** PUBACKs corked together (see the broker) leave in one write to the socket. */
  override _writev(chunks: { chunk: Buffer }[], callback: (err?: Error | null) => void): void {
    this.socket.cork();
    let flushed = true;
    for (const { chunk } of chunks) flushed = this.socket.write(chunk);
    this.socket.uncork();
    if (flushed) callback();
    else this.socket.once('drain', () => callback());
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.socket.end();
    callback();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.socket.destroy();
    callback(err);
  }
}
