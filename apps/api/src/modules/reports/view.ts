import { REPORT_STATUS_VIEW, ReportStatus, type Report, type ReportFileType, type ReportKind, type ReportStatusId } from '@sentinela/contract';
import { toSignature } from '../signatures/view';
import type { Clock } from '../../lib/clock';
import { reportFileName, reportFileStem, type ReportNaming } from './file-name';
import { reportLinkCapability } from './file-links';
import { filterInstant, type ReportRow } from './repository';

/** Where a report's file downloads from: travel reports under their own path, as the documents call it. */
export function filesPath(row: Pick<ReportRow, 'id' | 'kind'>): string {
  return row.kind === 'travel' ? `/api/travel-report/files/${row.id}` : `/api/report/files/${row.id}`;
}

export const CONTENT_TYPES: Record<ReportFileType, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The electronic signature that approved a report (ADR 0062), or null. */
export function approvalOf(row: ReportRow): Report['approval'] {
  return row.approval_id
    ? toSignature({
        id: row.approval_id, printed_name: row.approval_printed_name!, username: row.approval_username!, meaning: row.approval_meaning!,
        signed_at: row.approval_signed_at!, record_hash: row.approval_record_hash!, hash: row.approval_hash!,
      })
    : null;
}

/** A mapping study's name, kept in its report's filters (X12, ADR 0083). */
export function studyNameOf(filters: Record<string, unknown>): string | null {
  return typeof filters.studyName === 'string' ? filters.studyName : null;
}

export function namingOf(row: ReportRow): ReportNaming {
  return {
    kind: row.kind,
    type: row.type,
    // A mapping study is named by the study, like a device report by its device.
    deviceName: row.kind === 'mapping-study' ? studyNameOf(row.filters) : row.device_name,
    travelCode: row.travel_code,
    from: filterInstant(row.filters, 'dateInit'),
    to: filterInstant(row.filters, 'dateEnd'),
  };
}

/**
 * Report records as the documents read them (spec 001 §3), with the file's name and its link (ADR 0070): a
 * generated report's `download_url` opens its file without a session for `linkMinutes`, and ends with the file's
 * name, so "the last segment of download_url plus its type" (R4) names a zip entry by device, period and type.
 */
export class ReportView {
  constructor(
    private readonly clock: Clock,
    private readonly linkMinutes: number,
    private readonly timeZone: string,
  ) {}

  fileName(row: ReportRow): string {
    return reportFileName(namingOf(row), this.timeZone);
  }

  /** The link's expiry, rounded up to the minute so a list polled within a minute answers the same links. */
  private linkExpiry(): Date {
    const at = this.clock.now().getTime() + this.linkMinutes * 60_000;
    return new Date(Math.ceil(at / 60_000) * 60_000);
  }

  downloadUrl(row: ReportRow): string {
    const stem = encodeURIComponent(reportFileStem(namingOf(row), this.timeZone));
    return `${filesPath(row)}/${reportLinkCapability(row.id, row.link_key, this.linkExpiry())}/${stem}`;
  }

  toReport(row: ReportRow): Report {
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
      download_url: row.status === ReportStatus.Generated ? this.downloadUrl(row) : null,
      file_name: this.fileName(row),
      user: row.user_name !== null ? { name: row.user_name } : null,
      approval: approvalOf(row),
    };
  }
}
