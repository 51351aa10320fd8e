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

/**
 * An export of the trail (ADR 0063): which file (its SHA-256 and size) was handed out, with which filters, in the
 * exported enterprise's chain (the platform's for a super admin's export of several or of the platform's).
 */
export async function recordTrailExport(
  db: Db,
  exported: { enterpriseId: string | null; documentId: string; format: string; entries: number; filters: Record<string, unknown>; sha256: string; size: number; verified: boolean },
): Promise<void> {
  await recordAuditEvent(db, {
    enterpriseId: exported.enterpriseId,
    action: 'export',
    entity: 'audit_trail',
    entityId: exported.documentId,
    after: { format: exported.format, entries: exported.entries, filters: exported.filters, sha256: exported.sha256, file_size: exported.size, verified: exported.verified },
  });
}
