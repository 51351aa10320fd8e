import { REPORT_MESSAGES, type Report } from '@sentinela/contract';
import { ApiError } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';

/** The last segment of a report's download address: the file's name without its type (ADR 0070). */
function lastSegment(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  const segment = path.split('/').filter(Boolean).pop() ?? 'relatorio';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The name a report's file is saved and zipped under: the server's `file_name` (device or travel, period and type,
 * e.g. `Geladeira-Vacinas_2026-11-01_2026-11-02.pdf`), which is also "the last segment of download_url plus its type"
 * of spec 001 R4.
 */
export function reportFileName(report: Pick<Report, 'download_url' | 'type' | '_id'> & { file_name?: string }): string {
  return report.file_name || `${lastSegment(report.download_url ?? report._id)}.${report.type}`;
}

/** A generated report's file error: the server's reason, or the generic text. */
export class ReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportError';
  }
}

/**
 * Downloads a generated report's file (the one way the web client saves a report): its route needs the session's
 * token, so the file is fetched and saved under the name the server gives. The server answers 409 while generating.
 */
export function downloadReport(report: Report, signal?: AbortSignal): Promise<string> {
  if (!report.download_url) return Promise.reject(new ReportError(REPORT_MESSAGES.stillGenerating));
  return downloadFile(report.download_url, reportFileName(report), signal);
}

/** "the server error text or the message" (spec 001 §8): what to say when getting a report's file fails. */
export function reportErrorMessage(error: unknown): string {
  return error instanceof ApiError || error instanceof ReportError ? error.message : REPORT_MESSAGES.failed;
}
