import { REPORT_STATUS_VIEW, ReportStatus, type Report, type ReportFileType, type ReportKind, type ReportStatusId } from '@sentinela/contract';
import { toSignature } from '../signatures/view';
import { filterInstant, type ReportRow } from './repository';

/** Where a report's file downloads from: travel reports under their own path, as the documents call it. */
export function downloadPath(row: Pick<ReportRow, 'id' | 'kind'>): string {
  return row.kind === 'travel' ? `/api/travel-report/files/${row.id}` : `/api/report/files/${row.id}`;
}

export const CONTENT_TYPES: Record<ReportFileType, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A report row as the documents read it (spec 001 §3). */
export function toReport(row: ReportRow): Report {
  const status = REPORT_STATUS_VIEW[row.status as ReportStatusId] ?? { id: row.status, name: String(row.status), color: 'gray' };
  return {
    _id: row.id,
    kind: row.kind as ReportKind,
    type: row.type as ReportFileType,
    device: row.device_name !== null ? { name: row.device_name } : null,
    mac: row.device_mac,
    travel: row.travel_id && row.travel_code ? { _id: row.travel_id, code: row.travel_code } : null,
    status,
    error: row.error,
    filters: { ...row.filters, dateInit: filterInstant(row.filters, 'dateInit'), dateEnd: filterInstant(row.filters, 'dateEnd') },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    download_url: row.status === ReportStatus.Generated ? downloadPath(row) : null,
    user: row.user_name !== null ? { name: row.user_name } : null,
    approval: row.approval_id
      ? toSignature({
          id: row.approval_id, printed_name: row.approval_printed_name!, username: row.approval_username!, meaning: row.approval_meaning!,
          signed_at: row.approval_signed_at!, record_hash: row.approval_record_hash!, hash: row.approval_hash!,
        })
      : null,
  };
}
