import type { LoginBody } from '@sentinela/contract';
import { startSession, type Session } from '../../../lib/session';
import { authenticate } from './authenticate';
import { getUserClientId } from './get-user-client-id';

/** Authenticates, loads the user's enterprise, then stores the session (the window starts now). */
export async function signIn(credentials: LoginBody): Promise<Session> {
  const { token, user } = await authenticate(credentials);
  const enterprise = await getUserClientId(user._id, token.token);
  const session: Session = { token: token.token, user, enterprise };
  startSession(session);
  return session;
}
