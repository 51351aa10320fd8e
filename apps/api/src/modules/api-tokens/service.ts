import {
  API_TOKEN_MAX_ACTIVE,
  API_TOKEN_MESSAGES as M,
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  parseBoundedInstant,
  type ApiToken,
  type CreateApiTokenBody,
  type CreatedApiToken,
} from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { newSecret, sha256 } from '../../lib/tokens';
import { countActiveTokens, findLiveToken, insertToken, listTokens, recordUses, revokeToken, type LiveApiToken } from './repository';

/** How often the last uses gathered in memory are written (and at close). */
const USAGE_FLUSH_MS = 30_000;
/** A use is worth writing when the stored one is older than this: `last_used_at` is kept to the minute. */
const USAGE_STEP_MS = 60_000;

/** The enterprise an administrator manages integrations of; anyone else (the super admin has none) is refused. */
function enterpriseOf(scope: TenantScope): string {
  if (scope.kind === 'enterprise') return scope.enterpriseId;
  throw forbidden();
}

/**
 * API tokens (X13, ADR 64): created by an enterprise administrator, shown once, stored as a SHA-256 hash, revoked at
 * once (nothing is cached: every request looks its token up). Uses are gathered in memory and written in one
 * statement every half minute, so a token's requests cost a read and no write each.
 */
export class ApiTokenService {
  private readonly uses = new Map<string, Date>();
  /** The last use written (or found written) per token, so that a busy token is written once a minute at most. */
  private readonly written = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: { error: (obj: unknown, msg: string) => void },
  ) {}

  /** Whether a bearer credential is an API token by its form (session tokens have no prefix and 43 characters). */
  static looksLikeToken(credential: string): boolean {
    return API_TOKEN_PATTERN.test(credential);
  }

  list(scope: TenantScope): Promise<ApiToken[]> {
    return listTokens(this.db, enterpriseOf(scope), this.clock.now());
  }

  async create(scope: TenantScope, createdBy: string, body: CreateApiTokenBody): Promise<CreatedApiToken> {
    const enterpriseId = enterpriseOf(scope);
    const now = this.clock.now();
    let expiresAt: Date | null = null;
    if (body.expires_at) {
      expiresAt = new Date(parseBoundedInstant(body.expires_at, { requireOffset: true })!);
      if (expiresAt <= now) throw badRequest(M.expiryInPast);
    }
    if ((await countActiveTokens(this.db, enterpriseId, now)) >= API_TOKEN_MAX_ACTIVE) throw conflict(M.tooMany);
    const token = API_TOKEN_PREFIX + newSecret(32);
    const id = await insertToken(this.db, {
      enterpriseId,
      createdBy,
      name: body.name,
      scopes: body.scopes,
      tokenHash: sha256(token),
      tokenPrefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
      at: now,
      expiresAt,
    });
    return { _id: id, name: body.name, scopes: body.scopes, token, expires_at: expiresAt?.toISOString() ?? null, created_at: now.toISOString() };
  }

  async revoke(scope: TenantScope, id: string): Promise<void> {
    if (!(await revokeToken(this.db, enterpriseOf(scope), id, this.clock.now()))) throw notFound(M.notFound);
  }

  /** The live token a credential is, or null (unknown, revoked, expired, creator no longer an active administrator). */
  async authenticate(credential: string): Promise<LiveApiToken | null> {
    if (!ApiTokenService.looksLikeToken(credential)) return null;
    return (await findLiveToken(this.db, sha256(credential), this.clock.now())) ?? null;
  }

  /** Notes a use of a token; written with the next flush when the stored last use is a minute behind. */
  recordUse(tokenId: string): void {
    const now = this.clock.now();
    const written = this.written.get(tokenId);
    if (written !== undefined && now.getTime() - written < USAGE_STEP_MS) return;
    this.uses.set(tokenId, now);
    this.timer ??= setTimeout(() => void this.flushUsage(), USAGE_FLUSH_MS);
    this.timer.unref?.();
  }

  /** Writes the uses gathered so far (one statement); resolves once they are stored. */
  flushUsage(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = new Map(this.uses);
    this.uses.clear();
    for (const [id, at] of batch) this.written.set(id, at.getTime());
    this.flushing = this.flushing.then(async () => {
      try {
        await recordUses(this.db, batch);
      } catch (err) {
        this.log.error({ err, tokens: batch.size }, 'api token last uses not written');
      }
    });
    return this.flushing;
  }
}
