import { SessionUser, UserClientIdResponse } from '@sentinela/contract';
import type { Session } from './session';

/**
 * The whole stored session against the contract's schemas: a tab that kept a session written by an older build
 * (sessionStorage outlives a reload into a new build) must not reach screens with a user of another shape. The
 * signed-in shell checks it (lib/session.ts reads only what the guards need, without zod: ADR 0040).
 */
export function storedSessionIsValid(session: Session): boolean {
  return SessionUser.safeParse(session.user).success && UserClientIdResponse.safeParse(session.enterprise).success;
}
