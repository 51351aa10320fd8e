import { z } from './zod-locale';
import { IsoDate } from './common';
import { secretText } from './values';

/**
 * Electronic signatures (21 CFR 11.50, 11.70, 11.200; issue 22 point 6; FEATURES X11; ADR 0062): in GxP mode an
 * alarm's acknowledgement, and always a report's approval, is signed with the signer's password checked again and the
 * meaning of the signature; the signature is bound to the record by the record's hash.
 */
export const SIGNATURE_MEANINGS = ['Revisado', 'Aprovado', 'Responsável'] as const;
export type SignatureMeaning = (typeof SIGNATURE_MEANINGS)[number];

/** After this many wrong passwords in a row, signing is locked for SIGNATURE_LOCK_MINUTES. */
export const SIGNATURE_MAX_FAILURES = 3;
export const SIGNATURE_LOCK_MINUTES = 15;

export const SIGNATURE_MESSAGES = {
  passwordRequired: 'Informe sua senha para assinar.',
  meaningRequired: 'Escolha o significado da assinatura.',
  wrongPassword: 'Senha incorreta. A assinatura não foi registrada.',
  lockedNow: `Senha incorreta pela terceira vez: a assinatura eletrônica ficará bloqueada por ${SIGNATURE_LOCK_MINUTES} minutos e o administrador foi avisado.`,
  locked: (minutes: number) => `Assinatura eletrônica bloqueada após senhas incorretas. Tente novamente em ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
} as const;

export const signaturePassword = () => secretText('A senha', { max: 200, requiredMessage: SIGNATURE_MESSAGES.passwordRequired });
export const signatureMeaning = () => z.enum(SIGNATURE_MEANINGS, { message: SIGNATURE_MESSAGES.meaningRequired });

/** A signature as every screen and report shows it: printed name, username, time and meaning (11.50). */
export const ElectronicSignature = z.object({
  _id: z.string(),
  printed_name: z.string(),
  username: z.string(),
  meaning: z.enum(SIGNATURE_MEANINGS),
  signed_at: IsoDate,
  /** SHA-256 of the signed record's content at signing time (11.70: bound to the record). */
  record_hash: z.string(),
  /** SHA-256 of the signature itself (signer, meaning, time, record hash), also in the audit trail. */
  hash: z.string(),
});
export type ElectronicSignature = z.infer<typeof ElectronicSignature>;

/** POST /api/reports/{id}/approve. */
export const ApproveReportBody = z.object({ password: signaturePassword(), meaning: signatureMeaning() });
export type ApproveReportBody = z.infer<typeof ApproveReportBody>;
