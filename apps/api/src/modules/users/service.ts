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
   * Edit user (M5): an administrator changes the name, username and email of a user its scope holds. A username or
   * email another user has (in any case) is a 409 with the field's message; the user's sessions go on.
   */
  async updateIdentity(auth: AuthContext, userId: string, body: UpdateUserBody): Promise<UserDetail> {
    const user = await userToActOn(this.db, auth, userId, 'edit');
    try {
      await updateUserIdentity(this.db, user.id, body, this.clock.now());
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key')) throw conflict(USER_MESSAGES.usernameTaken);
      if (isUniqueViolation(error, 'users_email_key')) throw conflict(MSG.emailTaken);
      throw error;
    }
    // The address the user had is told (ADR 58), without a "Não fui eu" link: the administrator decides here.
    await this.protection.identityChanged(user.id, user, body, 'administrator');
    return (await findUserInScope(this.db, auth.scope, user.id))!;
  }
}
