import { BILLING_MESSAGES, type Invoice, type InvoiceDetail } from '@sentinela/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';

type Q = Kysely<Database>;

/** The columns an invoice answer is made of. */
export function invoiceQuery(db: Q) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('enterprises as e', 'e.id', 'i.enterprise_id')
    .leftJoin('plan_cycles as c', 'c.id', 'i.plan_cycle_id')
    .select([
      'i.id', 'i.number', 'i.enterprise_id', 'e.name as enterprise_name', 'i.issued_at', 'i.due_at', 'i.period_start', 'i.period_end',
      'c.plan_id', 'i.plan_cycle_id', 'i.plan_name', 'i.cycle_name', 'i.txid', 'i.method', 'i.amount_cents', 'i.status', 'i.paid_at',
      'i.paid_end_to_end_id', 'i.paid_by', 'i.paid_reason', 'i.kind', 'i.plan_price_cents', 'i.previous_plan_name', 'i.previous_cycle_name',
      'i.previous_price_cents',
    ]);
}

export type InvoiceRow = Awaited<ReturnType<ReturnType<typeof invoiceQuery>['executeTakeFirstOrThrow']>>;

/** One invoice within the caller's reach; another enterprise's id is a 404, as one that does not exist. */
export async function findInvoiceInScope(db: Q, scope: TenantScope, id: string): Promise<InvoiceRow> {
  let q = invoiceQuery(db).where('i.id', '=', id);
  if (scope.kind !== 'all') {
    if (!scope.enterpriseId) throw notFound(BILLING_MESSAGES.invoiceNotFound);
    q = q.where('i.enterprise_id', '=', scope.enterpriseId);
  }
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(BILLING_MESSAGES.invoiceNotFound);
  return row;
}

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    enterprise: { _id: row.enterprise_id, name: row.enterprise_name },
    data: row.issued_at.toISOString(),
    due_at: row.due_at.toISOString(),
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    plan: { _id: row.plan_id ?? null, name: row.plan_name, cicle_id: row.plan_cycle_id, cicle_name: row.cycle_name },
    modo: row.cycle_name,
    transacao: row.txid,
    metodo: row.method === 'manual' ? 'Manual' : 'PIX',
    valor: row.amount_cents,
    status: row.status,
    pending: row.status === 'pending' || row.status === 'overdue',
    paid_at: row.paid_at ? row.paid_at.toISOString() : null,
    kind: row.kind,
    plan_value_cents: row.plan_price_cents,
    upgraded_from:
      row.kind === 'proration' && row.previous_plan_name && row.previous_cycle_name
        ? { plan_name: row.previous_plan_name, cicle_name: row.previous_cycle_name, value_cents: row.previous_price_cents }
        : null,
  };
}

export async function toInvoiceDetail(db: Q, row: InvoiceRow): Promise<InvoiceDetail> {
  if (row.status !== 'paid') return { ...toInvoice(row), payment: null };
  const by = row.paid_by ? await db.selectFrom('users').select(['id', 'name']).where('id', '=', row.paid_by).executeTakeFirst() : undefined;
  return {
    ...toInvoice(row),
    payment: { end_to_end_id: row.paid_end_to_end_id, marked_by: by ? { _id: by.id, name: by.name } : null, reason: row.paid_reason },
  };
}

/** E-mail addresses of an enterprise's active administrators (who receive invoices and receipts). */
export async function adminEmails(db: Q, enterpriseId: string, adminProfile: number): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('enterprise_id', '=', enterpriseId)
    .where('profile_id', '=', adminProfile)
    .where('disabled', '=', false)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.email);
}

/** After a payment: back to active when nothing overdue remains (the restriction is lifted with it). */
export async function reactivateIfSettled(db: Q, enterpriseId: string): Promise<void> {
  const overdue = await db.selectFrom('invoices').select('id').where('enterprise_id', '=', enterpriseId).where('status', '=', 'overdue').executeTakeFirst();
  if (overdue) return;
  await db.updateTable('subscriptions').set({ status: 'active', restricted_at: null }).where('enterprise_id', '=', enterpriseId).where('status', '=', 'overdue').execute();
}

/** The invoice a PDF handed out by this platform is, by the SHA-256 of its exact bytes (the validator's question, ADR 30). */
export async function findInvoiceDocumentBySha256(db: Q, sha256: string) {
  const row = await db
    .selectFrom('invoice_documents as d')
    .innerJoin('invoices as i', 'i.id', 'd.invoice_id')
    .innerJoin('enterprises as e', 'e.id', 'i.enterprise_id')
    .select(['d.id', 'i.number', 'd.generated_at', 'e.name'])
    .where('d.sha256', '=', sha256)
    .orderBy('d.generated_at', 'desc')
    .executeTakeFirst();
  return row ? { _id: row.id, number: row.number, generated_at: row.generated_at.toISOString(), enterprise: row.name } : undefined;
}
