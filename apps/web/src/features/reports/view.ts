import { REPORT_KIND_NAMES, ReportStatus, type Report } from '@sentinela/contract';
import { EMPTY, formatDateTime, formatDateTimeMinutes } from '../../lib/format';

/** Nome: the device's name; a whole-travel report has no device and is named by its travel. */
export function reportName(report: Report): string {
  if (report.device) return report.device.name;
  if (report.travel) return `Viagem ${report.travel.code}`;
  return EMPTY;
}

/** What the report is about (device history, device in a travel, whole travel). */
export const reportKindName = (report: Report) => REPORT_KIND_NAMES[report.kind];

/** The two ends of a report's period, DD/MM/YYYY HH:mm in local time (an open end is --); null without a period. */
export function reportPeriodEnds(report: Pick<Report, 'filters'>): { from: string; to: string } | null {
  const { dateInit, dateEnd } = report.filters;
  if (!dateInit && !dateEnd) return null;
  return { from: formatDateTimeMinutes(dateInit), to: formatDateTimeMinutes(dateEnd) };
}

/** Período: "DD/MM/YYYY HH:mm – DD/MM/YYYY HH:mm", or -- without a period. */
export function reportPeriod(report: Pick<Report, 'filters'>): string {
  const ends = reportPeriodEnds(report);
  return ends ? `${ends.from} – ${ends.to}` : EMPTY;
}

/** Gerado em: when the file was written, only for a generated report. */
export function reportGeneratedAt(report: Pick<Report, 'status' | 'updated_at'>): string {
  return report.status.id === ReportStatus.Generated ? formatDateTime(report.updated_at) : EMPTY;
}

/** Tipo: the file type (the file's extension), as users name it. */
export function reportType(report: Pick<Report, 'type'>): string {
  return report.type.toUpperCase();
}
