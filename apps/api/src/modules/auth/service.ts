import { hash, verify } from '@node-rs/argon2';
import { MSG, type LoginResponse } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/errors';
import { findLoginCandidate, findUserById } from '../users/repository';
import type { ClientMeta, SessionService } from './session-service';
import type { AccessLogWriter } from '../access-log/writer';
import type { Clock } from '../../lib/clock';
import { API_VERSION } from '@sentinela/contract';
import { recordSignIn } from '../audit-trail/events';

/** argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes). */
export const hashPassword = (password: string) => hash(password);

// Verified against when a username does not exist, so both failures take the same time.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hash('sentinela-dummy-password'));

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionService,
    private readonly accessLog: AccessLogWriter,
    private readonly clock: Clock,
  ) {}

  private record(userId: string, meta: ClientMeta, statusCode: number, message: string) {
    this.accessLog.record({
      created_at: this.clock.now(), user_id: userId, enterprise_id: null, client: meta.client,
      client_version: meta.clientVersion, client_os: meta.clientOs, ip: meta.ip, api_version: API_VERSION,
      method: 'POST', path: '/api/authenticate', status_code: statusCode, message,
    });
  }

  async login(username: string, password: string, meta: ClientMeta): Promise<LoginResponse> {
    const candidate = await findLoginCandidate(this.db, username);
    const passwordOk = await verify(candidate?.password_hash ?? (await getDummyHash()), password).catch(() => false);
    // One answer whether the username does not exist, the password is wrong, or the account (or its enterprise)
    // is disabled: only the right password of an active account learns anything, and every path verifies a
    // hash first, so the time tells nothing either. The access log keeps the real reason for administrators.
    if (!candidate || !passwordOk || candidate.disabled || candidate.enterprise_disabled) {
      if (candidate) this.record(candidate.id, meta, 401, passwordOk ? 'Tentativa de login de usuário desativado' : 'Tentativa de login com senha incorreta');
      await recordSignIn(this.db, username, candidate, candidate ? (passwordOk ? 'disabled' : 'wrong_password') : 'unknown_user');
      throw new AppError('INVALID_CREDENTIALS', MSG.invalidCredentials);
    }

    const { token, expiresAt } = await this.sessions.create(candidate.id, meta);
    const user = await findUserById(this.db, candidate.id);
    if (!user) throw new AppError('INVALID_CREDENTIALS', MSG.invalidCredentials);
    this.record(candidate.id, meta, 200, 'Login efetuado');
    await recordSignIn(this.db, username, candidate, 'ok');
    return { token: { token, expires_at: expiresAt.toISOString() }, user };
  }
}
