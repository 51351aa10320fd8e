import { MSG, SubscribeTravel, z, type SubscribeAck } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import type { SessionService } from '../modules/auth/session-service';
import { TRAVEL_MESSAGES } from '../modules/travels/messages';
import type { TravelService } from '../modules/travels/service';
import { scopeOf } from '../plugins/auth';
import type { FixedWindowLimiter } from './fixed-window';
import type { RealtimeServer, RealtimeSocket, SessionWatch } from './socket-auth';

type Ack = z.infer<typeof SubscribeAck>;

/** The room of a travel's live topics. */
export const travelRoom = (travelId: string) => `travel:${travelId}`;

/** A page follows one travel at a time; a few allow for tabs of one socket and slow unsubscribes. */
const MAX_TRAVELS_PER_SOCKET = 20;

export const REALTIME_MESSAGES = {
  invalidSubscription: 'Informe a viagem (travelId) ou o código do localizador (code).',
  tooManyTravels: 'Limite de viagens acompanhadas ao mesmo tempo atingido.',
} as const;

const UnsubscribeTravel = z.object({ travelId: z.uuid() });

interface Deps {
  travels: TravelService;
  sessions: SessionService;
  watch: SessionWatch;
  /** Tracking codes tried per address (shared limit with nothing else: HTTP has its own). */
  codeAttempts: FixedWindowLimiter;
  log: { error(obj: unknown, msg: string): void };
}

/**
 * Travel rooms (T6). `subscribe` {travelId} joins a travel's room when GET /api/travels/{id} would answer the
 * socket's user (checked again at each subscription, which also renews the session); `subscribe` {code}
 * joins with the tracking code, on the Localizador's terms (not finished, unless the user may see the travel).
 * Both answer through the acknowledgement (SubscribeAck). `unsubscribe` {travelId} leaves.
 */
export function handleTravelRooms(io: RealtimeServer, deps: Deps): void {
  io.on('connection', (socket) => {
    deps.watch.watch(socket);

    socket.on('subscribe', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      subscribe(socket, payload, deps).then(reply, (err: unknown) => {
        deps.log.error({ err }, 'travel subscription failed');
        reply({ ok: false, error: MSG.internalError } satisfies Ack);
      });
    });

    socket.on('unsubscribe', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      const parsed = UnsubscribeTravel.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: REALTIME_MESSAGES.invalidSubscription } satisfies Ack);
      void socket.leave(travelRoom(parsed.data.travelId));
      reply({ ok: true, travelId: parsed.data.travelId } satisfies Ack);
    });
  });
}

async function subscribe(socket: RealtimeSocket, payload: unknown, deps: Deps): Promise<Ack> {
  const parsed = SubscribeTravel.safeParse(payload);
  if (!parsed.success) return refuse(REALTIME_MESSAGES.invalidSubscription);
  const travelRooms = [...socket.rooms].filter((room) => room.startsWith('travel:')).length;
  if (travelRooms >= MAX_TRAVELS_PER_SOCKET) return refuse(REALTIME_MESSAGES.tooManyTravels);

  let travelId: string;
  if ('travelId' in parsed.data) {
    const auth = socket.data.auth;
    if (!auth) return refuse(MSG.unauthenticated);
    const session = await deps.sessions.authenticate(auth.token);
    if (!session) return refuse(MSG.sessionExpired);
    auth.scope = scopeOf(session);
    deps.watch.renewed(socket, session.expiresAt);
    if (!(await deps.travels.watchable(auth.scope, parsed.data.travelId))) return refuse(TRAVEL_MESSAGES.notFound);
    travelId = parsed.data.travelId;
  } else {
    if (!deps.codeAttempts.take(socket.data.ip)) return refuse(TRAVEL_MESSAGES.tooManyLookups);
    try {
      travelId = await deps.travels.watchableByCode(parsed.data.code, socket.data.auth?.scope ?? null);
    } catch (err) {
      if (err instanceof AppError) return refuse(err.message);
      throw err;
    }
  }
  await socket.join(travelRoom(travelId));
  return { ok: true, travelId };
}

const refuse = (error: string): Ack => ({ ok: false, error });
