import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_TOKEN_MESSAGES, can, MSG, Profile, SESSION_EXPIRED_CODE, TOKEN_SCOPES_OF_PERMISSION, type ApiTokenScope, type Permission } from '@sentinela/contract';
import { AppError, RetryLaterError } from '../lib/errors';
import type { HotLimit } from '../lib/rate-limits/rate-limits';
import { scopeFor, type TenantScope } from '../lib/tenant-scope';
import { setAuditActor } from '../lib/audit-context';
import type { SessionService, AuthenticatedSession } from '../modules/auth/session-service';
import { ApiTokenService } from '../modules/api-tokens/service';
import type { LiveApiToken } from '../modules/api-tokens/repository';

/** The API token a request was made with (X13, ADR 64). */
export interface ApiTokenIdentity {
  id: string;
  name: string;
  scopes: readonly ApiTokenScope[];
}

/**
 * Who is asking, once a request is authenticated: a person's session, or an API token acting for its enterprise
 * (then `userId` is the administrator who created it, `sessionId` is null and `apiToken` says which token).
 */
export interface AuthContext extends Omit<AuthenticatedSession, 'sessionId' | 'expiresAt'> {
  sessionId: string | null;
  expiresAt: Date | null;
  apiToken: ApiTokenIdentity | null;
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

/** The signed-in person's session: for what only a person does (sign out, change a password), never a token. */
export function requireSession(request: FastifyRequest): AuthContext & { sessionId: string } {
  const auth = requireAuth(request);
  if (auth.sessionId === null) throw new AppError('FORBIDDEN', API_TOKEN_MESSAGES.notForTokens);
  return auth as AuthContext & { sessionId: string };
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

/** Whether a token with these scopes may call a route of this permission (the one table: TOKEN_SCOPES_OF_PERMISSION). */
export function tokenMay(scopes: readonly ApiTokenScope[], permission: Permission): { ok: true } | { ok: false; message: string } {
  const needed = TOKEN_SCOPES_OF_PERMISSION[permission];
  if (needed === null) return { ok: false, message: API_TOKEN_MESSAGES.notForTokens };
  const missing = needed.filter((scope) => !scopes.includes(scope));
  return missing.length === 0 ? { ok: true } : { ok: false, message: API_TOKEN_MESSAGES.missingScope(missing) };
}

interface AuthOptions {
  sessions: SessionService;
  apiTokens: ApiTokenService;
  /** Requests per signed-in user (USER_MAX_REQUESTS_PER_MINUTE), shared by every process (ADR 54). */
  requestsPerUser: HotLimit;
  /** Requests per API token (API_TOKEN_MAX_REQUESTS_PER_MINUTE), shared by every process (ADR 54). */
  requestsPerToken: HotLimit;
}

async function auth(app: FastifyInstance, opts: AuthOptions) {
  app.decorateRequest('auth', null);

  // Per signed-in user (not per address: offices share one), so a user's scripts or a stuck screen spend their
  // own budget and nobody else's. A hot limit: decided in memory, shared by every process within a second (ADR 54).
  // Per API token, apart from its creator's own budget: an integration's loop never locks its administrator out.
  const spend = async (limit: HotLimit, key: string) => {
    const answer = await limit.take(key);
    if (!answer.allowed) throw new RetryLaterError('TOO_MANY_REQUESTS', MSG.tooManyRequests, answer.retryAfterSeconds);
  };
  const signedIn = async (request: FastifyRequest, session: AuthenticatedSession) => {
    request.auth = { ...session, apiToken: null, scope: scopeOf(session) };
    // The request's audit-trail entries name this user (ADR 0060).
    setAuditActor({ type: 'user', id: session.userId, name: session.name });
    await spend(opts.requestsPerUser, session.userId);
  };
  // A token acts as an administrator of its enterprise, narrowed by its scopes (ADR 64).
  const byToken = async (request: FastifyRequest, token: LiveApiToken, permission: Permission) => {
    request.auth = {
      sessionId: null,
      expiresAt: null,
      userId: token.created_by,
      profileId: Profile.EnterpriseAdmin,
      enterpriseId: token.enterprise_id,
      name: token.name,
      apiToken: { id: token.id, name: token.name, scopes: token.scopes },
      scope: { kind: 'enterprise', enterpriseId: token.enterprise_id },
    };
    // The request's audit-trail entries name the token, not its creator (ADR 0060, ADR 64).
    setAuditActor({ type: 'api_token', id: token.id, name: token.name });
    await spend(opts.requestsPerToken, token.id);
    opts.apiTokens.recordUse(token.id);
    const allowed = tokenMay(token.scopes, permission);
    if (!allowed.ok) throw new AppError('FORBIDDEN', allowed.message);
    if (!can(Profile.EnterpriseAdmin, permission)) throw new AppError('FORBIDDEN', MSG.forbidden);
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
      // An API token is no person: such routes answer it as they answer anyone.
      const session = token && !ApiTokenService.looksLikeToken(token) ? await opts.sessions.authenticate(token) : null;
      if (session) await signedIn(request, session);
      return;
    }
    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
    if (ApiTokenService.looksLikeToken(token)) {
      const live = await opts.apiTokens.authenticate(token);
      if (!live) throw new AppError('UNAUTHENTICATED', API_TOKEN_MESSAGES.invalid);
      return byToken(request, live, permission);
    }
    const session = await opts.sessions.authenticate(token);
    if (!session) throw new AppError(SESSION_EXPIRED_CODE, MSG.sessionExpired);
    await signedIn(request, session);
    if (!can(session.profileId, permission)) throw new AppError('FORBIDDEN', MSG.forbidden);
  });
}

export default fp(auth, { name: 'auth' });
