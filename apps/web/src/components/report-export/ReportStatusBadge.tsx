import { Badge, Tooltip } from '@mantine/core';
import { REPORT_MESSAGES, ReportStatus, type Report } from '@sentinela/contract';
import { IconInfoCircle } from '@tabler/icons-react';

/**
 * Status (R3), shared by the reports list and the mapping studies: a badge in the server's colour with the status name. A failed report (id 3) explains itself in a
 * tooltip, which also opens on focus and touch so that keyboard and phone users can read it.
 */
export function ReportStatusBadge({ report }: { report: Pick<Report, 'status' | 'error'> }) {
  const { status } = report;
  const failed = status.id === ReportStatus.Failed;
  const badge = (
    <Badge
      color={status.color || 'gray'}
      variant="light"
      data-testid="report-status"
      rightSection={failed ? <IconInfoCircle size={12} aria-hidden /> : undefined}
      tabIndex={failed ? 0 : undefined}
      style={{ minWidth: 'max-content', cursor: failed ? 'help' : undefined }}
    >
      {status.name}
    </Badge>
  );
  if (!failed) return badge;
  return (
    <Tooltip label={report.error || REPORT_MESSAGES.failed} events={{ hover: true, focus: true, touch: true }} multiline maw={320} withArrow>
      {badge}
    </Tooltip>
  );
}
