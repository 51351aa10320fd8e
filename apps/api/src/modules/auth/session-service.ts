import { sql } from 'kysely';
import { SESSION_WINDOW_MS } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { newSecret, sha256 } from '../../lib/tokens';
import type { EventBus, SessionsEndedEvent } from '../../realtime/event-bus';

export interface AuthenticatedSession {
  sessionId: string;
  userId: string;
  profileId: number;
  enterpriseId: string | null;
  name: string;
  expiresAt: Date;
}

export interface ClientMeta {
  client: string | null;
  clientVersion: string | null;
  clientOs: string | null;
  ip: string | null;
}

/**
 * A session is renewed at most once per this step: a burst of requests (a screen's parallel calls, 50 exports
 * clicked at once) reads the session without each taking its row lock in turn. The window ends at most this much
 * earlier than with a renewal per request.
 */
export const SESSION_RENEW_STEP_MS = 5_000;

/**
 * Server-side sessions with a 5-minute sliding window (P2). The token is opaque and random; only its
 * hash is stored. Checking a token and pushing its expiry forward is one statement, so every authorised
 * request costs a single round trip.
 */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  async create(userId: string, meta: ClientMeta): Promise<{ token: string; expiresAt: Date }> {
    const token = newSecret();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_WINDOW_MS);
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: sha256(token),
        user_id: userId,
        created_at: now,
        expires_at: expiresAt,
        client: meta.client,
        client_version: meta.clientVersion,
        client_os: meta.clientOs,
        ip: meta.ip,
      })
      .execute();
    return { token, expiresAt };
  }

  async authenticate(token: string): Promise<AuthenticatedSession | null> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_WINDOW_MS);
    const renewBefore = new Date(expiresAt.getTime() - SESSION_RENEW_STEP_MS);
    // Read and renew in one round trip; the renewal (and its row lock) only when the stored expiry is a step behind.
    const { rows } = await sql<AuthenticatedSession>`
      WITH live AS (
        SELECT s.id, s.expires_at, u.id AS user_id, u.profile_id, u.enterprise_id, u.name
        FROM sessions s
        JOIN users u ON u.id = s.user_id
        LEFT JOIN enterprises e ON e.id = u.enterprise_id
        WHERE s.token_hash = ${sha256(token)} AND s.revoked_at IS NULL AND s.expires_at > ${now}
          AND u.disabled = false AND (e.id IS NULL OR e.disabled = false)
      ), renewed AS (
        UPDATE sessions SET expires_at = ${expiresAt}
        FROM live WHERE sessions.id = live.id AND live.expires_at < ${renewBefore}
        RETURNING sessions.id
      )
      SELECT live.id AS "sessionId", live.user_id AS "userId", live.profile_id AS "profileId",
        live.enterprise_id AS "enterpriseId", live.name,
        CASE WHEN EXISTS (SELECT 1 FROM renewed) THEN ${expiresAt}::timestamptz ELSE live.expires_at END AS "expiresAt"
      FROM live`.execute(this.db);
    return rows[0] ?? null;
  }

  /**
   * A live session by id, without renewing it: who it belongs to now (profile and enterprise may have changed since
   * the socket connected). Null once expired, revoked or disabled.
   */
  async current(sessionId: string): Promise<AuthenticatedSession | null> {
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('enterprises as e', 'e.id', 'u.enterprise_id')
      .select(['s.id as sessionId', 'u.id as userId', 'u.profile_id as profileId', 'u.enterprise_id as enterpriseId', 'u.name', 's.expires_at as expiresAt'])
      .where('s.id', '=', sessionId)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', this.clock.now())
      .where('u.disabled', '=', false)
      .where((eb) => eb.or([eb('e.disabled', 'is', null), eb('e.disabled', '=', false)]))
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * When a session ends, without renewing it: for long-lived connections (Socket.IO) that must stop when the
   * session does, but whose mere existence is not user activity. Null once expired, revoked or disabled.
   */
  async expiryOf(sessionId: string): Promise<Date | null> {
    const now = this.clock.now();
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('enterprises as e', 'e.id', 'u.enterprise_id')
      .select('s.expires_at')
      .where('s.id', '=', sessionId)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .where('u.disabled', '=', false)
      .where((eb) => eb.or([eb('e.disabled', 'is', null), eb('e.disabled', '=', false)]))
      .executeTakeFirst();
    return row ? row.expires_at : null;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: this.clock.now() }).where('id', '=', sessionId).execute();
    this.announceEnded({ sessionId });
  }

  /**
   * Ends every session of a user (deactivation, password change). Inside a caller's transaction (`trx`) the
   * caller announces the end with `announceEnded` once it committed: live connections must not be cut for a
   * change that may still roll back.
   */
  async revokeAllOf(userId: string, trx?: Db): Promise<void> {
    await (trx ?? this.db)
      .updateTable('sessions')
      .set({ revoked_at: this.clock.now() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    if (!trx) this.announceEnded({ userId });
  }

  /** Tells long-lived connections (Socket.IO) that sessions ended, so they close now rather than at expiry. */
  announceEnded(event: SessionsEndedEvent): void {
    this.events.emit('sessions.ended', event);
  }
}
