import { EMAIL_CHANGE_MESSAGES, MSG } from '@sentinela/contract';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import { setAuditActor } from '../../lib/audit-context';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { newSecret, sha256 } from '../../lib/tokens';
import { recordAuditEvent } from '../audit-trail/repository';
import type { MailService } from '../mail/mail-service';
import type { AccountProtection } from './account-protection';
import { addressInUseMail, emailChangeMail } from './emails';
import { expireEmailVerificationsOf, insertEmailVerification } from './repository';

const HOUR_MS = 60 * 60 * 1000;

/** Who asks for a change: the user in their Perfil, or an administrator in Editar usuário, with what they can see. */
export interface EmailChangeRequester {
  userId: string;
  scope: TenantScope;
}

/** What opening a change link did. */
export type EmailChangeOutcome = { applied: true; userId: string } | { applied: false; reason: 'unavailable' };

/**
 * Pending e-mail changes (issue 21 point 5, ADR 82). E-mails are unique across the platform, so "this address is
 * taken" would tell whoever asks that some account, anywhere, has it. A new e-mail is therefore never applied when it
 * is asked for: it becomes a pending change, and the answer is the same whether the address is free or belongs to an
 * account the asker cannot see. The new address receives the link that applies it (the sign-up's confirmation tokens,
 * `email_verifications` with `new_email`); an address that already has an account receives a notice without link, and
 * no link exists that could apply it. Only a holder the asker already sees (a user of the administrator's enterprise;
 * anyone, for the platform administrator) is answered with the plain 409.
 */
export class EmailChangeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly protection: AccountProtection,
  ) {}

  /**
   * The 409 that tells nothing new: another user of what the requester already sees holds the address. Call before
   * anything is written, so a refused save changes nothing.
   */
  async refuseVisibleHolder(userId: string, newEmail: string, by: EmailChangeRequester): Promise<void> {
    const holder = await this.holderOf(userId, newEmail);
    if (holder && canSee(by.scope, holder)) throw conflict(MSG.emailTaken);
  }

  /**
   * Makes `newEmail` the user's pending e-mail (the earlier pending one, if any, stops working) and writes to it: the
   * link when the address is free, the notice when another account has it. The caller's answer never depends on which.
   */
  async request(userId: string, newEmail: string, by: EmailChangeRequester): Promise<void> {
    await this.refuseVisibleHolder(userId, newEmail, by);
    const holder = await this.holderOf(userId, newEmail);
    const user = await this.db.selectFrom('users').select(['id', 'enterprise_id']).where('id', '=', userId).executeTakeFirstOrThrow();
    const token = newSecret();
    const now = this.clock.now();
    const hours = this.config.emailConfirmationHours;
    await this.db.transaction().execute(async (trx) => {
      await expireEmailVerificationsOf(trx, userId, now, 'change');
      await insertEmailVerification(trx, {
        tokenHash: sha256(token),
        userId,
        expiresAt: new Date(now.getTime() + hours * HOUR_MS),
        newEmail,
        requestedBy: by.userId,
        now,
      });
      // GxP (ADR 60/63): the request is an event of the user's record; the same entry whichever the address is.
      await recordAuditEvent(trx, { enterpriseId: user.enterprise_id, action: 'email_change_requested', entity: 'user', entityId: userId, after: { pending_email: newEmail } });
    });
    if (holder) await this.mail.send(addressInUseMail(newEmail));
    else await this.mail.send(emailChangeMail(newEmail, `${this.config.publicUrl}/confirmation/${encodeURIComponent(token)}`, hours, by.userId !== userId));
  }

  /** The pending e-mail of a user (the latest live change link), or null. */
  async pendingOf(userId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('email_verifications')
      .select('new_email')
      .where('user_id', '=', userId)
      .where('new_email', 'is not', null)
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.clock.now())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row?.new_email ?? null;
  }

  /** "Cancelar alteração": the pending change's link stops working; 404 when none waits. */
  async cancel(userId: string): Promise<string> {
    const now = this.clock.now();
    const pending = await this.pendingOf(userId);
    if (!pending) throw notFound(EMAIL_CHANGE_MESSAGES.noneToCancel);
    await this.db.transaction().execute(async (trx) => {
      await expireEmailVerificationsOf(trx, userId, now, 'change');
      const user = await trx.selectFrom('users').select('enterprise_id').where('id', '=', userId).executeTakeFirstOrThrow();
      await recordAuditEvent(trx, { enterpriseId: user.enterprise_id, action: 'email_change_cancelled', entity: 'user', entityId: userId, before: { pending_email: pending } });
    });
    return EMAIL_CHANGE_MESSAGES.cancelled;
  }

  /**
   * Opening a change link (GET /api/verify-email/{token}, from `AccountService.verifyEmail`): the token is spent and,
   * if the address is still free, it becomes the account's e-mail, confirmed (whoever opened the link reads it). The
   * address the account had is told afterwards (ADR 58: with the "Não fui eu" link when the user asked in the Perfil).
   */
  async apply(token: { userId: string; newEmail: string; requestedBy: string | null }): Promise<EmailChangeOutcome> {
    const now = this.clock.now();
    const before = await this.db.selectFrom('users').select(['id', 'name', 'email', 'username']).where('id', '=', token.userId).executeTakeFirst();
    if (!before) return { applied: false, reason: 'unavailable' };
    // The trail names who applied it: the person holding the link, the account's own (new) address.
    setAuditActor({ type: 'user', id: before.id, name: before.name });
    if (await this.holderOf(token.userId, token.newEmail)) return { applied: false, reason: 'unavailable' };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ email: token.newEmail, verified: true, updated_at: now }).where('id', '=', token.userId).execute();
        // A link for the address the account had is of no use any more.
        await expireEmailVerificationsOf(trx, token.userId, now, 'current');
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) return { applied: false, reason: 'unavailable' };
      throw error;
    }
    const by = token.requestedBy === token.userId ? 'self' : 'administrator';
    await this.protection.identityChanged(token.userId, before, { email: token.newEmail, username: before.username }, by);
    return { applied: true, userId: token.userId };
  }

  private async holderOf(userId: string, email: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'enterprise_id'])
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .where('id', '<>', userId)
      .executeTakeFirst();
  }
}

/** Whether a scope already shows this user (the user lists of an administrator; oneself otherwise). */
function canSee(scope: TenantScope, user: { id: string; enterprise_id: string | null }): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'enterprise':
      return user.enterprise_id === scope.enterpriseId;
    case 'user':
      return user.id === scope.userId;
  }
}
