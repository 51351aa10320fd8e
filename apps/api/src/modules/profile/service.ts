import { PROFILE_MESSAGES, USER_MESSAGES, type ProfileBody, type ProfileResponse } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { EmailChangeService } from '../accounts/email-change';
import type { TenantScope } from '../../lib/tenant-scope';
import { hashPassword } from '../auth/service';
import { passwordContextOf, refuseWeakPassword } from '../auth/password-policy';
import type { ClientMeta, SessionService } from '../auth/session-service';
import type { CurrentPasswordCheck } from '../auth/current-password';
import type { AccountProtection } from '../accounts/account-protection';

/** The signed-in user's own profile and password (A7). */
export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
    private readonly protection: AccountProtection,
    private readonly emailChanges: EmailChangeService,
    private readonly currentPassword: CurrentPasswordCheck,
  ) {}

  async get(userId: string): Promise<ProfileResponse> {
    const row = await this.db.selectFrom('users').select(['name', 'username', 'email', 'phone', 'verified']).where('id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    return { ...row, pending_email: await this.emailChanges.pendingOf(userId) };
  }

  /**
   * Saves name, username and phone, and asks for a new e-mail. A new e-mail or username needs the current password (a
   * session alone never takes the account: ADR 58). A new e-mail is a pending change (ADR 82): the account keeps its
   * address until the link sent to the new one is opened, and the answer is the same whether the address is free or
   * another account's; only a user the caller already sees (an administrator's own enterprise) gets the 409. A new
   * username is applied at once (409 when taken) and told to the account's address with a "Não fui eu" link.
   */
  async update(auth: { userId: string; scope: TenantScope }, body: ProfileBody, meta: ClientMeta): Promise<string> {
    const { userId } = auth;
    const current = await this.get(userId);
    const emailChanged = current.email.toLowerCase() !== body.email.toLowerCase();
    const usernameChanged = current.username.toLowerCase() !== body.username.toLowerCase();
    if (emailChanged || usernameChanged) {
      if (!body.current_password) throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.identityNeedsPassword);
      await this.currentPassword.verify(userId, body.current_password, meta, { method: 'POST', path: '/api/profile' });
    }
    if (emailChanged) await this.emailChanges.refuseVisibleHolder(userId, body.email, auth);
    // The e-mail as typed only when it is the same address (a change of case); a new one waits for its link.
    const email = emailChanged ? current.email : body.email;
    try {
      await this.db
        .updateTable('users')
        .set({ name: body.name, username: body.username, email, phone: body.phone, updated_at: this.clock.now() })
        .where('id', '=', userId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key')) throw conflict(USER_MESSAGES.usernameTaken);
      throw error;
    }
    await this.protection.identityChanged(userId, current, { email: current.email, username: body.username }, 'self');
    if (!emailChanged) return PROFILE_MESSAGES.saved;
    await this.emailChanges.request(userId, body.email, auth);
    return PROFILE_MESSAGES.emailChanged;
  }

  /** "Cancelar alteração" of the Perfil: the pending e-mail's link stops working. */
  async cancelPendingEmail(userId: string): Promise<string> {
    return this.emailChanges.cancel(userId);
  }

  /**
   * Change password: the current password is required (ADR 0016). The user's other sessions end; the one that
   * changed it goes on.
   */
  async changePassword(userId: string, sessionId: string, currentPassword: string, password: string, meta: ClientMeta): Promise<void> {
    await this.currentPassword.verify(userId, currentPassword, meta, { method: 'POST', path: '/api/me/change-password' });
    await refuseWeakPassword(password, await passwordContextOf(this.db, userId));
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
    await this.protection.passwordChanged(userId, 'profile');
  }
}
