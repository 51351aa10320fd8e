import { verify } from '@node-rs/argon2';
import { API_VERSION, MSG, PROFILE_MESSAGES } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, RetryLaterError } from '../../lib/errors';
import type { Limit } from '../../lib/rate-limits/rate-limits';
import type { AccessLogWriter } from '../access-log/writer';
import type { ClientMeta } from './session-service';

/** Where a current password was asked for, as the access log names it. */
export interface PasswordPrompt {
  method: string;
  path: string;
}

/**
 * The current password asked again before a change that could take the account (ADR 16, ADR 58): a new password,
 * e-mail or username. A wrong one is counted like a failed login: written to the user's access log, and after
 * `LOGIN_MAX_PER_MINUTE` wrong ones a minute every further try of that user answers 429, right or wrong, until the
 * minute ends. Counted per user, not per session: a thief with several stolen sessions gets no more guesses.
 */
export class CurrentPasswordCheck {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly accessLog: AccessLogWriter,
    /** Wrong current passwords per user and minute (LOGIN_MAX_PER_MINUTE), shared by every process (ADR 54). */
    private readonly failures: Limit,
  ) {}

  async verify(userId: string, password: string | undefined, meta: ClientMeta, prompt: PasswordPrompt): Promise<void> {
    if (!password) throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.currentPasswordRequired);
    const spent = await this.failures.check(userId);
    if (!spent.allowed) throw new RetryLaterError('TOO_MANY_REQUESTS', MSG.tooManyLoginAttempts, spent.retryAfterSeconds);
    const row = await this.db.selectFrom('users').select(['password_hash', 'enterprise_id']).where('id', '=', userId).executeTakeFirstOrThrow();
    if (await verify(row.password_hash, password).catch(() => false)) return;
    await this.failures.penalty(userId);
    this.accessLog.record({
      created_at: this.clock.now(), user_id: userId, enterprise_id: row.enterprise_id, client: meta.client,
      client_version: meta.clientVersion, client_os: meta.clientOs, ip: meta.ip, api_version: API_VERSION,
      method: prompt.method, path: prompt.path, status_code: 400, message: 'Senha atual incorreta',
    });
    throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.wrongCurrentPassword);
  }
}
