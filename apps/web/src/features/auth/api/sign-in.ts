import type { LoginBody, SessionUser } from '@sentinela/contract';
import { startSession, type Session } from '../../../lib/session';
import { authenticate } from './authenticate';
import { getUserClientId } from './get-user-client-id';

/** Who has just authenticated, before the session is stored (the enterprise's call is still under way). */
export interface Authenticated {
  token: string;
  user: SessionUser;
}

/**
 * Authenticates, loads the user's enterprise, then stores the session (the window starts now). `onAuthenticated` runs
 * as soon as authenticate answers, beside the enterprise's call: the app starts there the next screen's code and the
 * requests that need only the user and the token (ADR 0086).
 */
export async function signIn(credentials: LoginBody, onAuthenticated?: (authenticated: Authenticated) => void): Promise<Session> {
  const { token, user } = await authenticate(credentials);
  onAuthenticated?.({ token: token.token, user });
  const enterprise = await getUserClientId(user._id, token.token);
  const session: Session = { token: token.token, user, enterprise };
  startSession(session);
  return session;
}
