import type { Db } from '../../db/database';
import { setAuditActor } from '../../lib/audit-context';
import { recordAuditEvent } from './repository';

/**
 * The trail's events that are not row changes, one function each, so that every caller writes them alike (ADR 0060).
 */

export type SignInOutcome = 'ok' | 'wrong_password' | 'disabled' | 'unknown_user';

/** A sign-in, successful or not (issue 22 point 2), in the user's enterprise chain (the platform's when unknown). */
export async function recordSignIn(
  db: Db,
  username: string,
  user: { id: string; name: string; enterprise_id: string | null } | undefined,
  outcome: SignInOutcome,
): Promise<void> {
  // A successful sign-in is the user's own act; a failed one stays the anonymous caller's.
  if (user && outcome === 'ok') setAuditActor({ type: 'user', id: user.id, name: user.name });
  await recordAuditEvent(db, {
    enterpriseId: user?.enterprise_id ?? null,
    action: outcome === 'ok' ? 'sign_in' : 'sign_in_failed',
    entity: 'user',
    entityId: user?.id ?? null,
    after: { username, outcome },
  });
}
