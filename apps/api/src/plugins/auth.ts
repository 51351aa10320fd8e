import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, MSG, SESSION_EXPIRED_CODE, type Permission } from '@sentinela/contract';
import { AppError, RetryLaterError } from '../lib/errors';
import { FixedWindowLimiter } from '../realtime/fixed-window';
import { scopeFor, type TenantScope } from '../lib/tenant-scope';
import { setAuditActor } from '../lib/audit-context';
import type { SessionService, AuthenticatedSession } from '../modules/auth/session-service';

/** Who is asking, once a request is authenticated. */
export interface AuthContext extends AuthenticatedSession {
  scope: TenantScope;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the route requires: 'public', or a permission of the profile table. Mandatory under /api.
     * 'public-or-signed-in': anyone, but a valid bearer session is recognised (`request.auth`) so the route may
     * answer signed-in callers more; an expired or unknown token is simply anonymous there, never a 401.
     */
    permission?: Permission | 'public' | 'public-or-signed-in';
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The signed-in caller, or a 401 (routes with a permission always have one). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
  return request.auth;
}

/** The tenant scope of an authenticated session. */
export function scopeOf(session: AuthenticatedSession): TenantScope {
  return scopeFor({ id: session.userId, profileId: session.profileId, enterpriseId: session.enterpriseId });
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

async function auth(app: FastifyInstance, opts: { sessions: SessionService; userMaxRequestsPerMinute: number }) {
  app.decorateRequest('auth', null);

  // Per signed-in user (not per address: offices share one), so a user's scripts or a stuck screen spend their
  // own budget and nobody else's. In memory: each API process counts its own share.
  const perUser = new FixedWindowLimiter(opts.userMaxRequestsPerMinute, 60_000);
  const signedIn = (request: FastifyRequest, session: AuthenticatedSession) => {
    request.auth = { ...session, scope: scopeOf(session) };
    // The request's audit-trail entries name this user (ADR 0060).
    setAuditActor({ type: 'user', id: session.userId, name: session.name });
    if (!perUser.take(session.userId)) throw new RetryLaterError('TOO_MANY_REQUESTS', MSG.tooManyRequests, perUser.retryAfterSeconds());
  };

  // A route under /api that declares no permission must not start (house rule 3).
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.method === 'HEAD') return;
    if (!route.config?.permission) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no permission`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (!permission || permission === 'public') return;
    if (permission === 'public-or-signed-in') {
      const token = bearerToken(request);
      const session = token ? await opts.sessions.authenticate(token) : null;
      if (session) signedIn(request, session);
      return;
    }
    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
    const session = await opts.sessions.authenticate(token);
    if (!session) throw new AppError(SESSION_EXPIRED_CODE, MSG.sessionExpired);
    signedIn(request, session);
    if (!can(session.profileId, permission)) throw new AppError('FORBIDDEN', MSG.forbidden);
  });
}

export default fp(auth, { name: 'auth' });
