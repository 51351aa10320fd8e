import { createHash } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { Profile, SIGNATURE_LOCK_MINUTES, SIGNATURE_MAX_FAILURES, SIGNATURE_MESSAGES, type ElectronicSignature, type SignatureMeaning } from '@sentinela/contract';
import { toSignature } from './view';
import type { Db } from '../../db/database';
import type { ElectronicSignaturesTable } from '../../db/schema';
import { asSystem } from '../../lib/audit-context';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, RetryLaterError } from '../../lib/errors';
import { composeMail, mailText, ours, quoted } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import { recordAuditEvent } from '../audit-trail/repository';

export type SignedRecordType = ElectronicSignaturesTable['record_type'];

/** What a signature binds to: the record's type, id, enterprise and the content its hash is computed from. */
export interface SignedRecord {
  type: SignedRecordType;
  id: string;
  enterpriseId: string | null;
  /** The record's content as signed (a stable object: its JSON, keys sorted, is hashed). */
  content: Record<string, unknown>;
  /** The signing time (the record's own time of the signed act). */
  at: Date;
}

/** A signer whose password was checked again, ready to sign. */
export interface VerifiedSigner {
  userId: string;
  printedName: string;
  username: string;
  meaning: SignatureMeaning;
}

/** JSON with keys sorted at every level: the same content always hashes the same. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return `{${Object.keys(value as object).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value instanceof Date ? value.toISOString() : value);
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Electronic signatures (X11, ADR 0062): the signer's password checked again at each signature (11.200), wrong ones
 * counted (three in a row lock signing for 15 minutes and tell the enterprise's administrators), the signature (printed
 * name, username, time, meaning: 11.50) stored with the record it signs and bound to it by the record's hash (11.70).
 */
export class SignatureService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly log: { error: (obj: unknown, msg: string) => void },
  ) {}

  /**
   * Checks the signer's password and meaning; a wrong password is counted (and written to the trail) before the
   * refusal, in its own transaction, so the count holds whatever the request does next.
   */
  async verifySigner(userId: string, password: string | undefined, meaning: SignatureMeaning | undefined): Promise<VerifiedSigner> {
    if (!password) throw badRequest(SIGNATURE_MESSAGES.passwordRequired);
    if (!meaning) throw badRequest(SIGNATURE_MESSAGES.meaningRequired);
    const user = await this.db
      .selectFrom('users as u')
      .leftJoin('signature_lockouts as l', 'l.user_id', 'u.id')
      .select(['u.id', 'u.name', 'u.username', 'u.password_hash', 'u.enterprise_id', 'l.failures', 'l.locked_until'])
      .where('u.id', '=', userId)
      .executeTakeFirstOrThrow();
    const now = this.clock.now();
    if (user.locked_until && user.locked_until > now) {
      const minutes = Math.max(1, Math.ceil((user.locked_until.getTime() - now.getTime()) / 60_000));
      throw new RetryLaterError('TOO_MANY_REQUESTS', SIGNATURE_MESSAGES.locked(minutes), minutes * 60);
    }
    const ok = await verify(user.password_hash, password).catch(() => false);
    if (ok) {
      if (user.failures) await this.db.deleteFrom('signature_lockouts').where('user_id', '=', userId).execute();
      return { userId, printedName: user.name, username: user.username, meaning };
    }
    const failures = (user.failures ?? 0) + 1;
    const locks = failures >= SIGNATURE_MAX_FAILURES;
    const lockedUntil = locks ? new Date(now.getTime() + SIGNATURE_LOCK_MINUTES * 60_000) : null;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('signature_lockouts')
        .values({ user_id: userId, failures: locks ? 0 : failures, locked_until: lockedUntil })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ failures: locks ? 0 : failures, locked_until: lockedUntil }))
        .execute();
      await recordAuditEvent(trx, { enterpriseId: user.enterprise_id, action: 'signature_failed', entity: 'user', entityId: userId, after: { failures, meaning } });
      if (locks) {
        await recordAuditEvent(trx, { enterpriseId: user.enterprise_id, action: 'signature_locked', entity: 'user', entityId: userId, after: { locked_until: lockedUntil!.toISOString(), minutes: SIGNATURE_LOCK_MINUTES } });
      }
    });
    if (locks) {
      await this.tellAdministrators(user, lockedUntil!).catch((err: unknown) => this.log.error({ err, userId }, 'signature lockout notice not queued'));
      throw new RetryLaterError('TOO_MANY_REQUESTS', SIGNATURE_MESSAGES.lockedNow, SIGNATURE_LOCK_MINUTES * 60);
    }
    throw new AppError('FORBIDDEN', SIGNATURE_MESSAGES.wrongPassword);
  }

  /** Stores the signature of `record` by `signer` (in the caller's transaction, with the record's change). */
  async sign(trx: Db, signer: VerifiedSigner, record: SignedRecord): Promise<ElectronicSignature> {
    const signedAt = record.at;
    const recordHash = sha256Hex(stableJson({ type: record.type, id: record.id, ...record.content }));
    const hash = sha256Hex(stableJson([signer.userId, signer.printedName, signer.username, signer.meaning, signedAt.toISOString(), record.type, record.id, recordHash]));
    const row = await trx
      .insertInto('electronic_signatures')
      .values({
        enterprise_id: record.enterpriseId, user_id: signer.userId, printed_name: signer.printedName, username: signer.username,
        meaning: signer.meaning, signed_at: signedAt, record_type: record.type, record_id: record.id, record_hash: recordHash, hash,
      })
      .returning(['id', 'printed_name', 'username', 'meaning', 'signed_at', 'record_hash', 'hash'])
      .executeTakeFirstOrThrow();
    return toSignature(row);
  }

  /** The enterprise's administrators (or the platform's, for a user of none) learn of the lockout by e-mail. */
  private async tellAdministrators(user: { id: string; name: string; username: string; enterprise_id: string | null }, until: Date): Promise<void> {
    let query = this.db.selectFrom('users').select(['email', 'name']).where('disabled', '=', false);
    query = user.enterprise_id
      ? query.where('enterprise_id', '=', user.enterprise_id).where('profile_id', '=', Profile.EnterpriseAdmin)
      : query.where('profile_id', '=', Profile.SuperAdmin);
    const admins = await query.execute();
    const when = until.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' });
    // Names are quoted, never addressed (ADR 59).
    const paragraphs = [
      mailText`A assinatura eletrônica de ${quoted(user.name)} (usuário ${quoted(user.username)}) foi bloqueada até ${ours(when)} após ${SIGNATURE_MAX_FAILURES} senhas incorretas seguidas.`,
      mailText`Se não foi a própria pessoa, verifique a conta. As tentativas estão na trilha de auditoria.`,
    ];
    await asSystem('assinatura eletrônica', async () => {
      for (const admin of admins) {
        await this.mail.send(composeMail({ to: admin.email, subject: mailText`Sentinela: assinatura eletrônica bloqueada`, greeting: mailText`Olá!`, paragraphs }));
      }
    });
  }
}
