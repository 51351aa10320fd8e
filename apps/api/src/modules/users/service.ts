import { MSG, Profile, USER_MESSAGES, type UpdateUserBody, type UserDetail } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import { hashPassword } from '../auth/service';
import { passwordContextOf, refuseWeakPassword } from '../auth/password-policy';
import type { SessionService } from '../auth/session-service';
import type { AccountProtection } from '../accounts/account-protection';
import type { EmailChangeService } from '../accounts/email-change';
import type { EventBus } from '../../realtime/event-bus';
import { setEnterpriseDisabled } from '../enterprises/repository';
import { findUserInScope, setUserDisabled, setUserPassword, updateUserIdentity } from './repository';
import { refuseLastActiveAdministrator, userToActOn } from './target-user';

export class UserService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
    private readonly events: EventBus,
    private readonly protection: AccountProtection,
    private readonly emailChanges: EmailChangeService,
  ) {}

  /** Spec 001 §4: status true deactivates, false activates; a user or, for the super admin, an enterprise. */
  async setActive(auth: AuthContext, target: { userId?: string; clientId?: string }, deactivate: boolean): Promise<string> {
    const now = this.clock.now();
    if (target.clientId) {
      if (auth.profileId !== Profile.SuperAdmin) throw forbidden();
      if (!(await setEnterpriseDisabled(this.db, target.clientId, deactivate, now))) throw notFound('Empresa não encontrada.');
      if (deactivate) this.sessions.announceEnded({ enterpriseId: target.clientId });
      this.events.emit('access.changed', { enterpriseId: target.clientId });
      // The documents use the user texts for both; an enterprise screen says what happened to the enterprise.
      return deactivate ? MSG.enterpriseDeactivated : MSG.enterpriseActivated;
    }
    if (target.userId) {
      const user = await userToActOn(this.db, auth, target.userId, 'set-active');
      await this.db.transaction().execute(async (trx) => {
        if (deactivate) await refuseLastActiveAdministrator(trx, user);
        await setUserDisabled(trx, user.id, deactivate, now);
        if (deactivate) await this.sessions.revokeAllOf(user.id, trx);
      });
      if (deactivate) this.sessions.announceEnded({ userId: user.id });
      this.events.emit('access.changed', { userId: user.id });
    }
    return deactivate ? MSG.userDeactivated : MSG.userActivated;
  }

  /**
   * Admin password reset (M4): an administrator sets a new password for a user it may act on (`userToActOn`: the
   * owner only by the owner or the super admin; never a super admin, never oneself, whose change-password asks
   * for the current one). The user's sessions end.
   */
  async resetPassword(auth: AuthContext, userId: string, password: string): Promise<string> {
    const user = await userToActOn(this.db, auth, userId, 'reset-password');
    await refuseWeakPassword(password, await passwordContextOf(this.db, user.id));
    const passwordHash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      await setUserPassword(trx, user.id, passwordHash, this.clock.now());
      await this.sessions.revokeAllOf(user.id, trx);
    });
    this.sessions.announceEnded({ userId: user.id });
    await this.protection.passwordChanged(user.id, 'administrator');
    return MSG.passwordResetByAdmin;
  }

  /**
   * Edit user (M5): an administrator changes the name, username and email of a user its scope holds. A username
   * another user has (in any case) is a 409. A new e-mail is a pending change (ADR 82): the user keeps their address
   * until the link sent to the new one is opened, and the answer is the same whether the address is free or belongs to
   * an account of another enterprise; only a user the administrator already sees (their enterprise) gets the 409.
   * The user's sessions go on.
   */
  async updateIdentity(auth: AuthContext, userId: string, body: UpdateUserBody): Promise<UserDetail> {
    const user = await userToActOn(this.db, auth, userId, 'edit');
    const requester = { userId: auth.userId, scope: auth.scope };
    const emailChanged = user.email.toLowerCase() !== body.email.toLowerCase();
    if (emailChanged) await this.emailChanges.refuseVisibleHolder(user.id, body.email, requester);
    try {
      // The e-mail as typed only when it is the same address (a change of case); a new one waits for its link.
      await updateUserIdentity(this.db, user.id, { name: body.name, username: body.username, email: emailChanged ? user.email : body.email }, this.clock.now());
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key')) throw conflict(USER_MESSAGES.usernameTaken);
      throw error;
    }
    // The address the user had is told (ADR 58), without a "Não fui eu" link: the administrator decides here. A new
    // e-mail is told when its link applies it.
    await this.protection.identityChanged(user.id, user, { email: user.email, username: body.username }, 'administrator');
    if (emailChanged) await this.emailChanges.request(user.id, body.email, requester);
    return this.withPendingEmail((await findUserInScope(this.db, auth.scope, user.id))!);
  }

  /** Editar usuário's view of a user: with the e-mail waiting for confirmation (ADR 82). */
  async show(auth: AuthContext, userId: string): Promise<UserDetail> {
    const user = await findUserInScope(this.db, auth.scope, userId);
    if (!user) throw notFound('Usuário não encontrado.');
    return this.withPendingEmail(user);
  }

  /** "Cancelar alteração" of Editar usuário: under the same rule as the edit itself. */
  async cancelPendingEmail(auth: AuthContext, userId: string): Promise<string> {
    const user = await userToActOn(this.db, auth, userId, 'edit');
    return this.emailChanges.cancel(user.id);
  }

  private async withPendingEmail(user: UserDetail): Promise<UserDetail> {
    return { ...user, pending_email: await this.emailChanges.pendingOf(user._id) };
  }
}
