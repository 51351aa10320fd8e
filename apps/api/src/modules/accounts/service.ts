import { verify } from '@node-rs/argon2';
import { ACCOUNT_MESSAGES, ENTERPRISE_MESSAGES, MSG, Profile, USER_MESSAGES, type ResetPasswordBody, type SignUpBody } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, conflict, notFound } from '../../lib/errors';
import { newSecret, sha256 } from '../../lib/tokens';
import { hashPassword } from '../auth/service';
import { passwordContextOf, refuseWeakPassword } from '../auth/password-policy';
import type { SessionService } from '../auth/session-service';
import { insertEnterprise } from '../enterprises/repository';
import type { MailService } from '../mail/mail-service';
import { insertUser, isEmailTaken, setUserPassword } from '../users/repository';
import { newRecoveryCode } from './recovery-code';
import type { AccountProtection } from './account-protection';
import type { EmailChangeService } from './email-change';
import { confirmationMail, recoveryCodeMail, welcomeMail, welcomeWithPasswordMail } from './emails';
import {
  countRecentPasswordResets,
  expireEmailVerificationsOf,
  findAccountByEmail,
  findLivePasswordReset,
  findPlanCycle,
  insertEmailVerification,
  insertPasswordReset,
  spendEmailVerification,
  spendPasswordReset,
  takePasswordResetAttempt,
} from './repository';

const HOUR_MS = 60 * 60 * 1000;


// Checked against when there is no code to check, so that an unknown e-mail takes as long as a wrong code.
let dummyCodeHash: Promise<string> | undefined;
const getDummyCodeHash = () => (dummyCodeHash ??= hashPassword('000000-dummy'));

/**
 * Accounts made by their owners: sign-up with e-mail confirmation (A3, A5) and password recovery by an e-mailed
 * code (A6). Every answer about an e-mail says no more than its form must: recovery answers the same whether the
 * e-mail exists or not. Tokens and codes are random, stored hashed, single use and expiring.
 */
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
    private readonly protection: AccountProtection,
    private readonly emailChanges: EmailChangeService,
  ) {}

  async isEmailAvailable(email: string): Promise<boolean> {
    return !(await isEmailTaken(this.db, email));
  }

  /**
   * Sign-up (POST /api/client): the enterprise with the chosen plan and cycle, and the registrant as its owner and
   * administrator, not yet verified; the confirmation link goes by e-mail. The account may sign in before
   * confirming (ADR 0015).
   */
  async signUp(body: SignUpBody): Promise<{ enterpriseId: string; withPlan: boolean }> {
    if (!!body.plan_id !== !!body.cicle_id) throw new AppError('BAD_REQUEST', 'Informe o plano e o ciclo juntos.');
    if (body.plan_id && body.cicle_id && !(await findPlanCycle(this.db, body.plan_id, body.cicle_id))) throw notFound(ACCOUNT_MESSAGES.planNotFound);
    if (await isEmailTaken(this.db, body.email)) throw conflict(MSG.emailTaken);
    await refuseWeakPassword(body.password, { username: body.username, email: body.email, enterpriseName: body.client.name });
    const passwordHash = await hashPassword(body.password);
    const now = this.clock.now();
    let userId: string;
    let enterpriseId: string;
    try {
      [userId, enterpriseId] = await this.db.transaction().execute(async (trx) => {
        const enterprise = await insertEnterprise(trx, { name: body.client.name, email: body.email, now });
        const user = await insertUser(trx, {
          name: body.name,
          username: body.username,
          email: body.email,
          phone: body.phone,
          password_hash: passwordHash,
          profile_id: Profile.EnterpriseAdmin,
          enterprise_id: enterprise.id,
          is_owner: true,
          disabled: false,
          verified: false,
          telegram_chat_id: null,
          created_at: now,
          updated_at: now,
        });
        if (body.cicle_id) await trx.insertInto('subscriptions').values({ enterprise_id: enterprise.id, plan_cycle_id: body.cicle_id, started_at: now }).execute();
        return [user.id, enterprise.id] as const;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw conflict(MSG.emailTaken);
      if (isUniqueViolation(error, 'users_username_key')) throw conflict(USER_MESSAGES.usernameTaken);
      if (isUniqueViolation(error, 'enterprises_name_key_idx')) throw conflict(ENTERPRISE_MESSAGES.nameTaken);
      throw error;
    }
    await this.sendConfirmation({ id: userId, name: body.name, email: body.email });
    return { enterpriseId, withPlan: !!body.cicle_id };
  }

  /**
   * GET /api/verify-email/{token}: confirms the e-mail once, or applies a pending change of e-mail (ADR 82).
   * 'invalid' for an unknown, spent or expired token; 'unavailable' when the new address has an account meanwhile.
   */
  async verifyEmail(token: string): Promise<'confirmed' | 'changed' | 'invalid' | 'unavailable'> {
    const spent = await spendEmailVerification(this.db, sha256(token), this.clock.now());
    if (!spent) return 'invalid';
    if (spent.newEmail === null) return 'confirmed';
    const outcome = await this.emailChanges.apply({ userId: spent.userId, newEmail: spent.newEmail, requestedBy: spent.requestedBy });
    return outcome.applied ? 'changed' : 'unavailable';
  }

  /** "Reenviar e-mail": a new link for the signed-in user, the earlier ones stop working. */
  async resendConfirmation(userId: string): Promise<string> {
    const user = await this.db.selectFrom('users').select(['id', 'name', 'email', 'verified']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound();
    if (user.verified) return ACCOUNT_MESSAGES.alreadyConfirmed;
    await this.sendConfirmation(user);
    return ACCOUNT_MESSAGES.confirmationSent;
  }

  private async sendConfirmation(user: { id: string; name: string; email: string }): Promise<void> {
    await this.mail.send(confirmationMail(user, await this.newConfirmationUrl(user.id), this.config.emailConfirmationHours));
  }

  /** A fresh confirmation link for the user; the earlier ones stop working. */
  private async newConfirmationUrl(userId: string): Promise<string> {
    const token = newSecret();
    const now = this.clock.now();
    await expireEmailVerificationsOf(this.db, userId, now, 'current');
    await insertEmailVerification(this.db, {
      tokenHash: sha256(token),
      userId,
      expiresAt: new Date(now.getTime() + this.config.emailConfirmationHours * HOUR_MS),
      now,
    });
    return `${this.config.publicUrl}/confirmation/${encodeURIComponent(token)}`;
  }

  /**
   * A user created by an administrator with a password (the documents' POST /api/user/create): the account works at
   * once; the e-mail says so, with the username, and carries the confirmation link.
   */
  async sendWelcomeWithPassword(user: { id: string; name: string; email: string; username: string }, enterpriseName: string): Promise<void> {
    const url = await this.newConfirmationUrl(user.id);
    await this.mail.send(welcomeWithPasswordMail(user, { enterprise: enterpriseName }, { confirmUrl: url, loginUrl: `${this.config.publicUrl}/login` }, this.config.emailConfirmationHours));
  }

  /**
   * POST api/password/request/reset: e-mails a new code to an existing, enabled account, within the hourly limit of
   * codes per e-mail. The caller is told the same in every case.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const account = await findAccountByEmail(this.db, email);
    const code = newRecoveryCode();
    // Hashed whether or not it is used: an unknown e-mail takes as long as a known one.
    const codeHash = await hashPassword(code);
    if (!account || account.disabled) return;
    const now = this.clock.now();
    if ((await countRecentPasswordResets(this.db, account.id, new Date(now.getTime() - HOUR_MS))) >= this.config.passwordResetMaxPerEmailHour) return;
    await insertPasswordReset(this.db, { userId: account.id, codeHash, expiresAt: new Date(now.getTime() + this.config.passwordResetMinutes * 60_000), now });
    await this.mail.send(recoveryCodeMail(account, code, this.config.passwordResetMinutes, this.protection.resetUrl(account.email)));
  }

  /**
   * A user created by an administrator (A13) chooses their own password: the recovery machinery with a code that
   * lives as long as a confirmation link (the e-mail may be read a day later), and a link to /reset-password.
   */
  async sendWelcome(user: { id: string; email: string; username: string }, enterpriseName: string): Promise<void> {
    const code = newRecoveryCode();
    const now = this.clock.now();
    const hours = this.config.emailConfirmationHours;
    await insertPasswordReset(this.db, { userId: user.id, codeHash: await hashPassword(code), expiresAt: new Date(now.getTime() + hours * HOUR_MS), now });
    // The screen fills the e-mail and speaks of a first password (`first=1`), not of changing one.
    const url = `${this.protection.resetUrl(user.email)}&first=1`;
    await this.mail.send(welcomeMail(user, { enterprise: enterpriseName }, code, url, hours));
  }

  /**
   * POST api/password/reset: the e-mailed code sets a new password. A wrong, spent or expired code, an unknown
   * e-mail and a code out of attempts all get one message. Success ends every session of the user.
   */
  async resetPassword(body: ResetPasswordBody): Promise<void> {
    const invalid = () => new AppError('BAD_REQUEST', ACCOUNT_MESSAGES.resetCodeInvalid);
    // A common password is refused before anything is looked up; the personal words only once the code proved the
    // mailbox, so the answer never tells a stranger what an e-mail's username is.
    await refuseWeakPassword(body.password, {});
    const now = this.clock.now();
    const account = await findAccountByEmail(this.db, body.email);
    const reset = account && !account.disabled ? await findLivePasswordReset(this.db, account.id, now, this.config.passwordResetMaxAttempts) : undefined;
    if (!account || !reset) {
      await verify(await getDummyCodeHash(), body.code).catch(() => false);
      throw invalid();
    }
    if (!(await takePasswordResetAttempt(this.db, reset.id, this.config.passwordResetMaxAttempts))) throw invalid();
    if (!(await verify(reset.code_hash, body.code).catch(() => false))) throw invalid();
    await refuseWeakPassword(body.password, await passwordContextOf(this.db, account.id));
    const passwordHash = await hashPassword(body.password);
    const changed = await this.db.transaction().execute(async (trx) => {
      if (!(await spendPasswordReset(trx, reset.id, now))) return false;
      await setUserPassword(trx, account.id, passwordHash, now);
      // The code came by e-mail: whoever typed it reads that mailbox.
      if (!account.verified) await trx.updateTable('users').set({ verified: true }).where('id', '=', account.id).execute();
      // Whoever knew the old password is out; so is a session the owner forgot somewhere.
      await this.sessions.revokeAllOf(account.id, trx);
      return true;
    });
    if (!changed) throw invalid();
    this.sessions.announceEnded({ userId: account.id });
    await this.protection.passwordChanged(account.id, 'recovery');
  }
}
