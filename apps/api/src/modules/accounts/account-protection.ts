import { randomBytes } from 'node:crypto';
import { ACCOUNT_PROTECTION_MESSAGES, CHANGE_REPORT_DAYS } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { newSecret, sha256 } from '../../lib/tokens';
import { hashPassword } from '../auth/service';
import type { SessionService } from '../auth/session-service';
import type { MailService } from '../mail/mail-service';
import { accountSecuredMail, identityChangedMail, passwordChangedMail, type PasswordChangeWay } from './emails';
import { expireEmailVerificationsOf, findOpenChangeReport, insertChangeReport, insertPasswordReset, isIdentityTakenByOther, spendChangeReportsOf } from './repository';
import { newRecoveryCode } from './recovery-code';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Identity {
  email: string;
  username: string;
}

/**
 * A session alone never takes an account (issue 21.2, ADR 58). Whoever changes an account's e-mail, username or
 * password is told at the address that is the account's until then; a change made in the account's own Perfil comes
 * with a "Não fui eu" link, valid `CHANGE_REPORT_DAYS`, that puts the account back in its owner's hands:
 * - the e-mail and username go back to what they were before the earliest change still reportable (a thief's later
 *   changes and their links go with it), each unless another account took it meanwhile;
 * - every session ends, the password stops working (nobody knows the new one), earlier recovery codes are spent, and
 *   a new e-mail still waiting for its link (ADR 82) never applies;
 * - a recovery code goes to the restored address, so its owner chooses a new password there.
 * Changes by an administrator are told too, without the link: the administrator decides, the user asks them.
 */
export class AccountProtection {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
  ) {}

  /** After a change of e-mail and/or username was committed. */
  async identityChanged(userId: string, previous: Identity, current: Identity, by: 'self' | 'administrator'): Promise<void> {
    const newEmail = previous.email.toLowerCase() !== current.email.toLowerCase() ? current.email : null;
    const newUsername = previous.username.toLowerCase() !== current.username.toLowerCase() ? current.username : null;
    if (!newEmail && !newUsername) return;
    const report = by === 'self' ? await this.newReport(userId, 'identity', previous, previous.email) : null;
    await this.mail.send(identityChangedMail(previous.email, { newEmail, newUsername, byAdministrator: by === 'administrator' }, report));
  }

  /** After a password change was committed: told to the account's address, with the link when made in the Perfil. */
  async passwordChanged(userId: string, way: PasswordChangeWay): Promise<void> {
    const user = await this.db.selectFrom('users').select(['email', 'username']).where('id', '=', userId).executeTakeFirst();
    if (!user) return;
    const report = way === 'profile' ? await this.newReport(userId, 'password', user, user.email) : null;
    await this.mail.send(passwordChangedMail(user.email, way, report, `${this.config.publicUrl}/login`));
  }

  /**
   * "Não fui eu" (POST /api/account/protect): secures the account the link is about. Answers what to tell the person
   * and, when a code went to them, the address to choose the new password with.
   */
  async protect(token: string): Promise<{ message: string; email: string | null }> {
    const now = this.clock.now();
    const report = await findOpenChangeReport(this.db, sha256(token), now);
    if (!report) throw notFound(ACCOUNT_PROTECTION_MESSAGES.linkInvalid);
    // Nobody knows this password: the owner chooses a new one with the code below.
    const unusable = await hashPassword(randomBytes(32).toString('base64url'));
    const secured = await this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'email', 'username']).where('id', '=', report.user_id).forUpdate().executeTakeFirstOrThrow();
      const notified = await trx.selectFrom('account_change_reports').select('notified_email').where('id', '=', report.id).executeTakeFirstOrThrow();
      const before = await spendChangeReportsOf(trx, user.id, now);
      const restore: Partial<Identity> = {};
      if (before && before.previous_email.toLowerCase() !== user.email.toLowerCase() && !(await isIdentityTakenByOther(trx, user.id, 'email', before.previous_email))) {
        restore.email = before.previous_email;
      }
      if (before && before.previous_username.toLowerCase() !== user.username.toLowerCase() && !(await isIdentityTakenByOther(trx, user.id, 'username', before.previous_username))) {
        restore.username = before.previous_username;
      }
      const email = restore.email ?? user.email;
      // The code goes only to the address that received the link (it just proved it reads it).
      const reachable = email.toLowerCase() === notified.notified_email.toLowerCase();
      await trx
        .updateTable('users')
        .set({ ...restore, password_hash: unusable, updated_at: now, ...(reachable ? { verified: true } : {}) })
        .where('id', '=', user.id)
        .execute();
      await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
      // A new e-mail still waiting for its link (ADR 82) was asked by whoever had the session: it never applies now.
      await expireEmailVerificationsOf(trx, user.id, now, 'change');
      await this.sessions.revokeAllOf(user.id, trx);
      return { userId: user.id, email: reachable ? email : null };
    });
    this.sessions.announceEnded({ userId: secured.userId });
    if (!secured.email) return { message: ACCOUNT_PROTECTION_MESSAGES.securedWithoutAddress, email: null };
    const code = newRecoveryCode();
    const minutes = this.config.passwordResetMinutes;
    await insertPasswordReset(this.db, { userId: secured.userId, codeHash: await hashPassword(code), expiresAt: new Date(now.getTime() + minutes * 60_000), now });
    await this.mail.send(accountSecuredMail(secured.email, code, minutes, this.resetUrl(secured.email)));
    return { message: ACCOUNT_PROTECTION_MESSAGES.secured, email: secured.email };
  }

  resetUrl(email: string): string {
    return `${this.config.publicUrl}/reset-password?email=${encodeURIComponent(email)}`;
  }

  private async newReport(userId: string, kind: 'identity' | 'password', previous: Identity, notifiedEmail: string): Promise<{ url: string; days: number }> {
    const token = newSecret();
    const now = this.clock.now();
    await insertChangeReport(this.db, {
      userId,
      tokenHash: sha256(token),
      kind,
      previousEmail: previous.email,
      previousUsername: previous.username,
      notifiedEmail,
      now,
      expiresAt: new Date(now.getTime() + CHANGE_REPORT_DAYS * DAY_MS),
    });
    return { url: `${this.config.publicUrl}/protect-account/${encodeURIComponent(token)}`, days: CHANGE_REPORT_DAYS };
  }
}
