import { SESSION_WINDOW_MS, type SessionUser, type UserClientIdResponse } from '@sentinela/contract';
import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * The signed-in session (P2, P3). It lives in sessionStorage: per tab, so closing the tab ends it and a
 * reload keeps it. Keys follow the documents: token, user, enterprise, login_time.
 * `login_time` is the end of the sliding 5-minute window; each authorized request pushes it ahead.
 */
export interface Session {
  token: string;
  user: SessionUser;
  enterprise: UserClientIdResponse;
}

const KEYS = { token: 'token', user: 'user', enterprise: 'enterprise', loginTime: 'login_time' } as const;
/**
 * Set when the window closed, until the next sign-in or until the notice is closed: a tab reloaded or reopened after
 * its session expired (in it, or just before it was closed) still says why it is on /login (P2).
 */
const EXPIRED_KEY = 'session_expired';

type Listener = () => void;
const listeners = new Set<Listener>();
const expiryListeners = new Set<Listener>();
const expiredNoticeListeners = new Set<Listener>();

// undefined: not read from storage yet; null: signed out.
let current: Session | null | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * What the guards, menus and the signed-in shell read before any screen loads (id, name, e-mail, profile). The
 * stored user was parsed with the contract's schema when it was stored; the whole shape is checked again by the
 * signed-in shell (`storedSessionIsValid`, loaded after its first paint), so zod stays out of the first load of every
 * screen (ADR 0040, ADR 0048).
 */
function looksLikeUser(value: unknown): value is SessionUser {
  return (
    isObject(value) &&
    typeof value._id === 'string' &&
    // What the signed-in shell shows before its full check has loaded.
    typeof value.name === 'string' &&
    typeof value.email === 'string' &&
    isObject(value.profile) &&
    typeof value.profile._id === 'number'
  );
}

function readStoredSession(): Session | null {
  try {
    const token = sessionStorage.getItem(KEYS.token);
    const user: unknown = JSON.parse(sessionStorage.getItem(KEYS.user) ?? 'null');
    const enterprise: unknown = JSON.parse(sessionStorage.getItem(KEYS.enterprise) ?? 'null');
    if (!token || !looksLikeUser(user) || !isObject(enterprise)) return null;
    return { token, user, enterprise: enterprise as UserClientIdResponse };
  } catch {
    return null;
  }
}

function emit(set: Set<Listener>) {
  for (const listener of set) listener();
}

export function getSession(): Session | null {
  if (current === undefined) current = readStoredSession();
  return current;
}

/** End of the sliding window, in ms since the epoch (0 when signed out). */
export function getSessionDeadline(): number {
  return Number(sessionStorage.getItem(KEYS.loginTime) ?? 0);
}

export function startSession(session: Session, now: number = Date.now()): void {
  sessionStorage.setItem(KEYS.token, session.token);
  sessionStorage.setItem(KEYS.user, JSON.stringify(session.user));
  sessionStorage.setItem(KEYS.enterprise, JSON.stringify(session.enterprise));
  sessionStorage.setItem(KEYS.loginTime, String(now + SESSION_WINDOW_MS));
  current = session;
  emit(listeners);
  dismissExpiredNotice();
}

/** After the user edits their own profile: the stored user shows the new name, username and e-mail. */
export function updateSessionUser(patch: Partial<Pick<SessionUser, 'name' | 'username' | 'email' | 'phone' | 'verified'>>): void {
  const session = getSession();
  if (!session) return;
  const next: Session = { ...session, user: { ...session.user, ...patch } };
  sessionStorage.setItem(KEYS.user, JSON.stringify(next.user));
  current = next;
  emit(listeners);
}

export function clearSession(): void {
  missedExpiry = false;
  for (const key of Object.values(KEYS)) sessionStorage.removeItem(key);
  if (current === null) return;
  current = null;
  emit(listeners);
}

export function isSessionExpired(now: number = Date.now()): boolean {
  return getSession() !== null && now > getSessionDeadline();
}

// An expiry found before anyone listened (see expireSession).
let missedExpiry = false;

/** Drops an expired session and tells the app once, so it can alert the user and go to /login. */
export function expireSession(): void {
  if (getSession() === null) return;
  clearSession();
  sessionStorage.setItem(EXPIRED_KEY, '1');
  emit(expiredNoticeListeners);
  // A tab reopened on an expired session finds it while the first screen renders, before the app's root has
  // subscribed (effects run children first): the notice waits for the first listener instead of being lost.
  if (expiryListeners.size === 0) missedExpiry = true;
  else emit(expiryListeners);
}

/**
 * Called before each authorized request: returns the token and slides the window 5 minutes ahead,
 * or expires the session and returns null when the window has already closed.
 */
export function touchSession(now: number = Date.now()): string | null {
  const session = getSession();
  if (!session) return null;
  if (now > getSessionDeadline()) {
    expireSession();
    return null;
  }
  sessionStorage.setItem(KEYS.loginTime, String(now + SESSION_WINDOW_MS));
  return session.token;
}

export function onSessionExpired(listener: Listener): () => void {
  expiryListeners.add(listener);
  if (missedExpiry) {
    missedExpiry = false;
    listener();
  }
  return () => expiryListeners.delete(listener);
}

/** Whether the last session of this tab ended by expiry and the user has not yet signed in again nor closed the notice. */
export function sessionExpiredNoticePending(): boolean {
  return sessionStorage.getItem(EXPIRED_KEY) === '1';
}

export function dismissExpiredNotice(): void {
  if (!sessionExpiredNoticePending()) return;
  sessionStorage.removeItem(EXPIRED_KEY);
  emit(expiredNoticeListeners);
}

/** The pending "Sua sessão expirou…" notice (see EXPIRED_KEY), re-rendering when it is set or dismissed. */
export function useSessionExpiredNotice(): boolean {
  return useSyncExternalStore(
    (listener) => {
      expiredNoticeListeners.add(listener);
      return () => expiredNoticeListeners.delete(listener);
    },
    sessionExpiredNoticePending,
    sessionExpiredNoticePending,
  );
}

/** Hears sign-in and sign-out (not each window slide). */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current session, re-rendering on sign-in and sign-out (not on each window slide). */
export function useSession(): Session | null {
  return useSyncExternalStore(onSessionChange, getSession, getSession);
}

/** Provided by the session guard to the screens it lets through. */
export const SignedInContext = createContext<Session | null>(null);

/** The session on screens behind the session guard, where it is known to exist. */
export function useRequiredSession(): Session {
  const session = useContext(SignedInContext);
  if (!session) throw new Error('useRequiredSession used outside a signed-in route');
  return session;
}
