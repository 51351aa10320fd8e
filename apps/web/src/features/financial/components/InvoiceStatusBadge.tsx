import { Badge } from '@mantine/core';
import { INVOICE_STATUS_LABELS, type InvoiceStatus } from '@sentinela/contract';

const COLORS: Record<InvoiceStatus, string> = { pending: 'yellow', overdue: 'red', paid: 'teal', cancelled: 'gray' };

/** The invoice's status in pt-BR (Em aberto, Vencida, Paga, Cancelada). */
export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" style={{ whiteSpace: 'nowrap' }}>
      {INVOICE_STATUS_LABELS[status]}
    </Badge>
  );
}
