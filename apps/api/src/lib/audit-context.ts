import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is changing records, from where and why: the context every audit-trail entry is written with (ADR 0060).
 *
 * The database writes the trail itself, from row triggers on the audited tables; those triggers read this context from
 * the transaction setting `sentinela.audit` (a JSON text), which the database driver (db/audit-driver.ts) stamps on the
 * connection before a write whenever the context differs from what the connection last carried. Code therefore never
 * passes an actor around: it runs inside a context.
 *
 * - An HTTP request runs inside one context from its first hook (plugins/audit-context.ts): actor `anonymous` with the
 *   client's address and headers, which the auth plugin turns into the signed-in `user` after authentication (an API
 *   token's plugin sets an `api_token` actor the same way, with `setAuditActor`).
 * - Jobs, ingestion, timers, the seed and scripts run `asSystem('<what>', …)` so their entries name the process.
 * - A write with no context at all (a test fixture, a forgotten path) is recorded as the system actor `sistema`;
 *   a write from outside the application (psql) is recorded with actor type `database` and the database role.
 * - A reason for change (GxP mode, ADR 0061) is attached with `withReason(reason, …)` around the write.
 */
export type AuditActorType = 'user' | 'api_token' | 'system' | 'anonymous';

export interface AuditActor {
  type: AuditActorType;
  /** The user's or API token's id; null for the system and anonymous callers. */
  id: string | null;
  /** What an inspector reads: the user's name and username, the token's name, the system process. */
  name: string;
}

export interface AuditClient {
  address: string | null;
  /** The client headers every request carries (P4). */
  client: string | null;
  clientVersion: string | null;
  clientOs: string | null;
  userAgent: string | null;
}

export interface AuditContext {
  actor: AuditActor;
  client: AuditClient;
  /** Why the change is made (3–500 characters); required in GxP mode for some changes (ADR 0061). */
  reason: string | null;
}

export const NO_CLIENT: AuditClient = { address: null, client: null, clientVersion: null, clientOs: null, userAgent: null };

const storage = new AsyncLocalStorage<AuditContext>();

/** The context of the code running now, if any. */
export function currentAuditContext(): AuditContext | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts) inside `context`. */
export function runWithAuditContext<T>(context: AuditContext, fn: () => T): T {
  return storage.run(context, fn);
}

/**
 * Names the actor of the context running now (the request's): the auth plugin after authentication, an API token's
 * plugin likewise. Mutates the request's context object, so hooks and the handler that follow see it.
 */
export function setAuditActor(actor: AuditActor): void {
  const context = storage.getStore();
  if (context) context.actor = actor;
}

/** Runs `fn` with `reason` attached to every entry its writes produce (an empty or missing reason attaches none). */
export function withReason<T>(reason: string | null | undefined, fn: () => T): T {
  const context = storage.getStore();
  const trimmed = reason?.trim() || null;
  return storage.run({ actor: context?.actor ?? SYSTEM_DEFAULT.actor, client: context?.client ?? NO_CLIENT, reason: trimmed }, fn);
}

const systemContexts = new Map<string, AuditContext>();

/**
 * Runs `fn` as the system process `name` (e.g. 'ingestão', 'job:report'), whatever context it was started from: jobs
 * and batches flushed on a timer would otherwise inherit the request that happened to start them. One frozen context
 * per name, so a connection that keeps serving the same process is stamped once (db/audit-driver.ts).
 */
export function asSystem<T>(name: string, fn: () => T): T {
  let context = systemContexts.get(name);
  if (!context) {
    context = Object.freeze({ actor: Object.freeze({ type: 'system' as const, id: null, name }), client: NO_CLIENT, reason: null });
    systemContexts.set(name, context);
  }
  return storage.run(context, fn);
}

/** What writes outside any context are attributed to. */
export const SYSTEM_DEFAULT: AuditContext = Object.freeze({
  actor: Object.freeze({ type: 'system' as const, id: null, name: 'sistema' }),
  client: NO_CLIENT,
  reason: null,
});

/** The JSON text the triggers read from `sentinela.audit` (keys kept short and stable: the trigger reads them). */
export function auditSetting(context: AuditContext): string {
  const { actor, client } = context;
  return JSON.stringify({
    actor_type: actor.type,
    actor_id: actor.id,
    actor_name: actor.name,
    reason: context.reason,
    client_address: client.address,
    client: client.client,
    client_version: client.clientVersion,
    client_os: client.clientOs,
    user_agent: client.userAgent,
  });
}
