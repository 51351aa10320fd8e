import type { ElectronicSignature, SignatureMeaning } from '@sentinela/contract';
import type { ElectronicSignaturesTable } from '../../db/schema';

/** A stored signature as the API shows it (printed name, username, time, meaning; ADR 0062). */
export function toSignature(row: Pick<ElectronicSignaturesTable, 'printed_name' | 'username' | 'meaning' | 'record_hash' | 'hash'> & { id: string; signed_at: Date }): ElectronicSignature {
  return {
    _id: row.id,
    printed_name: row.printed_name,
    username: row.username,
    meaning: row.meaning as SignatureMeaning,
    signed_at: row.signed_at.toISOString(),
    record_hash: row.record_hash,
    hash: row.hash,
  };
}

