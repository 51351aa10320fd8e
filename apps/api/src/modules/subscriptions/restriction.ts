import { restrictedMessage, type OverdueInvoiceRef } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/errors';

/** The enterprise's oldest overdue invoice: the one the banner and the refusals name. */
export async function oldestOverdueInvoice(db: Db, enterpriseId: string): Promise<OverdueInvoiceRef | null> {
  const row = await db
    .selectFrom('invoices')
    .select(['id', 'number', 'amount_cents', 'due_at'])
    .where('enterprise_id', '=', enterpriseId)
    .where('status', '=', 'overdue')
    .orderBy('due_at')
    .orderBy('number')
    .executeTakeFirst();
  return row ? { id: row.id, number: row.number, valor: row.amount_cents, due_at: row.due_at.toISOString() } : null;
}

/**
 * A restricted subscription (ADR 32) refuses new commitments — more users, more devices, an upgrade — with a 402
 * naming the overdue invoice. Readings, alarms and their notifications, history and reports are never refused: a
 * cold-chain record must not have a hole because a bill is late. Paying lifts the restriction at once (ADR 27's
 * reactivateIfSettled clears `restricted_at`), so this reads the row each time.
 */
export async function refuseWhenRestricted(db: Db, enterpriseId: string): Promise<void> {
  const sub = await db.selectFrom('subscriptions').select('restricted_at').where('enterprise_id', '=', enterpriseId).executeTakeFirst();
  if (!sub?.restricted_at) return;
  const invoice = await oldestOverdueInvoice(db, enterpriseId);
  // Restricted with nothing overdue cannot last (a payment clears both); name what there is.
  if (!invoice) return;
  throw new AppError('PAYMENT_REQUIRED', restrictedMessage({ number: invoice.number, amount_cents: invoice.valor, due_at: invoice.due_at }));
}
