import { MSG, SubscribeTravel, z, type SubscribeAck } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import type { SessionService } from '../modules/auth/session-service';
import { TRAVEL_MESSAGES } from '../modules/travels/messages';
import type { TravelService } from '../modules/travels/service';
import { scopeOf } from '../plugins/auth';
import type { CodeExpiry } from './code-expiry';
import type { Limit } from '../lib/rate-limits/rate-limits';
import type { RealtimeServer, RealtimeSocket, SessionWatch } from './socket-auth';

type Ack = z.infer<typeof SubscribeAck>;

/** The room of a travel's live topics. */
export const travelRoom = (travelId: string) => `travel:${travelId}`;
/**
 * The room of those who follow a travel with a position-only code (ADR 36): they get its position and changes,
 * never the device cards (`travel-logs`), which carry the readings.
 */
export const travelPositionRoom = (travelId: string) => `travel-position:${travelId}`;

/** A page follows one travel at a time; a few allow for tabs of one socket and slow unsubscribes. */
const MAX_TRAVELS_PER_SOCKET = 20;

export const REALTIME_MESSAGES = {
  invalidSubscription: 'Informe a viagem (travelId) ou o código do localizador (code).',
  tooManyTravels: 'Limite de viagens acompanhadas ao mesmo tempo atingido.',
  tooManyMessages: 'Muitas inscrições em pouco tempo. Aguarde um minuto e tente novamente.',
} as const;

/** A socket that sends this many times its per-minute budget within a minute is flooding: it is disconnected. */
export const FLOOD_FACTOR = 2;

const UnsubscribeTravel = z.object({ travelId: z.uuid() });

interface Deps {
  travels: TravelService;
  sessions: SessionService;
  watch: SessionWatch;
  /** Tracking codes tried per address (shared limit with nothing else: HTTP has its own). */
  codeAttempts: Limit;
  /** subscribe/unsubscribe messages per socket and minute. */
  messagesPerMinute: number;
  /** Ends code rooms when their link expires (ADR 36). */
  codeExpiry: CodeExpiry;
  now?: () => number;
  log: { error(obj: unknown, msg: string): void };
}

/**
 * Travel rooms (T6). `subscribe` {travelId} joins a travel's room when GET /api/travels/{id} would answer the
 * socket's user (checked again at each subscription, which also renews the session); `subscribe` {code}
 * joins with the tracking code, on the Localizador's terms (not finished, unless the user may see the travel).
 * Both answer through the acknowledgement (SubscribeAck). `unsubscribe` {travelId} leaves.
 */
export function handleTravelRooms(io: RealtimeServer, deps: Deps): void {
  const now = deps.now ?? (() => Date.now());
  io.on('connection', (socket) => {
    deps.watch.watch(socket);
    // One subscription checked at a time per socket: a burst queues here, not in the database pool, where it
    // would delay every other tenant's queries (and a re-join after a join finds the room already joined).
    let queue: Promise<unknown> = Promise.resolve();

    socket.on('subscribe', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      if (!withinBudget(socket, deps.messagesPerMinute, now())) return reply(refuse(REALTIME_MESSAGES.tooManyMessages));
      const answer = queue.then(() => (socket.disconnected ? refuse(MSG.sessionExpired) : subscribe(socket, payload, deps)));
      queue = answer.catch(() => {});
      answer.then(reply, (err: unknown) => {
        deps.log.error({ err }, 'travel subscription failed');
        reply({ ok: false, error: MSG.internalError } satisfies Ack);
      });
    });

    socket.on('unsubscribe', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      if (!withinBudget(socket, deps.messagesPerMinute, now())) return reply(refuse(REALTIME_MESSAGES.tooManyMessages));
      const parsed = UnsubscribeTravel.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: REALTIME_MESSAGES.invalidSubscription } satisfies Ack);
      leaveTravel(socket, parsed.data.travelId);
      reply({ ok: true, travelId: parsed.data.travelId } satisfies Ack);
    });
  });
}

/**
 * The socket's message budget (issue 9): subscriptions cost database work, so a socket gets a minute's worth;
 * beyond it each message is refused at once, and a socket that goes on far beyond it is cut off.
 */
export function withinBudget(socket: RealtimeSocket, perMinute: number, now: number): boolean {
  const budget = socket.data.messages;
  if (now - budget.windowStart >= 60_000) {
    budget.windowStart = now;
    budget.count = 0;
  }
  budget.count++;
  if (budget.count > perMinute * FLOOD_FACTOR) socket.disconnect(true);
  return budget.count <= perMinute;
}

export function leaveTravel(socket: RealtimeSocket, travelId: string): void {
  socket.data.travels.delete(travelId);
  void socket.leave(travelRoom(travelId));
  void socket.leave(travelPositionRoom(travelId));
}

/** Puts a socket in the one room of a travel its right gives: all topics, or the position only. */
export async function placeInTravelRoom(socket: RealtimeSocket, travelId: string, positionOnly: boolean): Promise<void> {
  const [wanted, other] = positionOnly ? [travelPositionRoom(travelId), travelRoom(travelId)] : [travelRoom(travelId), travelPositionRoom(travelId)];
  await socket.leave(other);
  await socket.join(wanted);
}

async function subscribe(socket: RealtimeSocket, payload: unknown, deps: Deps): Promise<Ack> {
  const parsed = SubscribeTravel.safeParse(payload);
  if (!parsed.success) return refuse(REALTIME_MESSAGES.invalidSubscription);
  if ('travelId' in parsed.data) {
    const travelId = parsed.data.travelId;
    // Already in the room as a signed-in user: nothing to check again (the room is re-checked when access changes).
    if (socket.data.travels.get(travelId) === null) return { ok: true, travelId };
    return subscribeById(socket, travelId, deps);
  }
  return subscribeByCode(socket, parsed.data.code, deps);
}

function roomFull(socket: RealtimeSocket): boolean {
  return socket.data.travels.size >= MAX_TRAVELS_PER_SOCKET;
}

async function subscribeById(socket: RealtimeSocket, travelId: string, deps: Deps): Promise<Ack> {
  const auth = socket.data.auth;
  if (!auth) return refuse(MSG.unauthenticated);
  if (!socket.data.travels.has(travelId) && roomFull(socket)) return refuse(REALTIME_MESSAGES.tooManyTravels);
  const session = await deps.sessions.authenticate(auth.token);
  if (!session) return refuse(MSG.sessionExpired);
  auth.scope = scopeOf(session);
  deps.watch.renewed(socket, session.expiresAt);
  if (!(await deps.travels.watchable(auth.scope, travelId))) return refuse(TRAVEL_MESSAGES.notFound);
  return join(socket, travelId, null, false);
}

async function subscribeByCode(socket: RealtimeSocket, code: string, deps: Deps): Promise<Ack> {
  if (roomFull(socket)) return refuse(REALTIME_MESSAGES.tooManyTravels);
  if (!(await deps.codeAttempts.consume(socket.data.ip)).allowed) return refuse(TRAVEL_MESSAGES.tooManyLookups);
  let watch: { travelId: string; positionOnly: boolean; msLeft: number | null };
  try {
    watch = await deps.travels.watchableByCode(code, socket.data.auth?.scope ?? null);
  } catch (err) {
    if (err instanceof AppError) return refuse(err.message);
    throw err;
  }
  // A room joined as a user who may see the travel stays that way (a wider right than the code's).
  if (socket.data.travels.get(watch.travelId) === null) return join(socket, watch.travelId, null, false);
  const joined = await join(socket, watch.travelId, code, watch.positionOnly);
  if (joined.ok) deps.codeExpiry.arm(socket, watch.travelId, watch.msLeft);
  return joined;
}

async function join(socket: RealtimeSocket, travelId: string, code: string | null, positionOnly: boolean): Promise<Ack> {
  if (socket.disconnected) return refuse(MSG.sessionExpired);
  socket.data.travels.set(travelId, code);
  await placeInTravelRoom(socket, travelId, positionOnly);
  return { ok: true, travelId };
}

const refuse = (error: string): Ack => ({ ok: false, error });
