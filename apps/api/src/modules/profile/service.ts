import { verify } from '@node-rs/argon2';
import { MSG, PROFILE_MESSAGES, USER_MESSAGES, type ProfileBody, type ProfileResponse } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { AccountService } from '../accounts/service';
import { hashPassword } from '../auth/service';
import type { SessionService } from '../auth/session-service';

/** The signed-in user's own profile and password (A7). */
export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
    private readonly accounts: AccountService,
  ) {}

  async get(userId: string): Promise<ProfileResponse> {
    const row = await this.db.selectFrom('users').select(['name', 'username', 'email', 'phone', 'verified']).where('id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /**
   * Saves name, username, e-mail and phone. A new e-mail is unconfirmed until its owner follows the link sent to it
   * (the old address is no longer the account's). Another user's username or e-mail is a 409 with its message.
   */
  async update(userId: string, body: ProfileBody): Promise<string> {
    const current = await this.get(userId);
    const emailChanged = current.email.toLowerCase() !== body.email.toLowerCase();
    try {
      await this.db
        .updateTable('users')
        .set({ name: body.name, username: body.username, email: body.email, phone: body.phone, updated_at: this.clock.now(), ...(emailChanged ? { verified: false } : {}) })
        .where('id', '=', userId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key')) throw conflict(USER_MESSAGES.usernameTaken);
      if (isUniqueViolation(error, 'users_email_key')) throw conflict(MSG.emailTaken);
      throw error;
    }
    if (!emailChanged) return PROFILE_MESSAGES.saved;
    await this.accounts.resendConfirmation(userId);
    return PROFILE_MESSAGES.emailChanged;
  }

  /**
   * Change password: the current password is required (ADR 0016). The user's other sessions end; the one that
   * changed it goes on.
   */
  async changePassword(userId: string, sessionId: string, currentPassword: string, password: string): Promise<void> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    if (!(await verify(row.password_hash, currentPassword).catch(() => false))) throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.wrongCurrentPassword);
    const passwordHash = await hashPassword(password);
    const now = this.clock.now();
    const ended = await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
      return trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('id', '<>', sessionId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
    });
    for (const { id } of ended) this.sessions.announceEnded({ sessionId: id });
  }
}
