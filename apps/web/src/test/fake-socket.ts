import type { AlarmsSocket } from '../lib/live-alarms';

type Listener = (...args: never[]) => void;

/**
 * A Socket.IO client stand-in for component tests: records what the page emits and lets the test play the server
 * (connect, answer subscriptions, push events).
 */
export class FakeSocket implements AlarmsSocket {
  readonly emitted: { event: string; payload: unknown; ack: (answer: unknown) => void }[] = [];
  disconnected = false;
  private readonly listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener) {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  off(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, payload: unknown, ack: (answer: unknown) => void) {
    this.emitted.push({ event, payload, ack });
    return this;
  }

  disconnect() {
    this.disconnected = true;
    return this;
  }

  /** Whether the page listens to `event` (the feed attaches its listeners once its chunk has loaded). */
  listensTo(event: string): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  /** The server sends `event` to this client. */
  receive(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) (listener as (...a: unknown[]) => void)(...args);
  }

  /** Connects and answers the page's subscription with `answer`. */
  connect(answer: unknown) {
    this.receive('connect');
    const subscription = this.emitted.findLast((e) => e.event === 'subscribe-alarms');
    subscription?.ack(answer);
  }
}
