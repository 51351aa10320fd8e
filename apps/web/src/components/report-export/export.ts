import { REPORT_MESSAGES, ReportStatus, type Report } from '@sentinela/contract';
import { getReport } from './get-report';
import { requestExport, type ExportFormat, type ExportTarget } from './request-export';
import { downloadReport, ReportError } from './download';

/** What an export is doing, for the progress message: asking or downloading, or waiting for the job queue. */
export type ExportStage = 'loading' | 'generating';

export const EXPORT_STAGE_MESSAGES: Record<ExportStage, string> = {
  loading: REPORT_MESSAGES.loading,
  generating: REPORT_MESSAGES.generating,
};

export interface ExportOptions {
  signal?: AbortSignal;
  onStage?: (stage: ExportStage) => void;
  /** Pause between two looks at the report's status. */
  pollIntervalMs?: number;
  /** How long to wait for the job queue before giving up (the report stays listed on /reports). */
  timeoutMs?: number;
}

export const EXPORT_POLL_INTERVAL_MS = 700;
export const EXPORT_TIMEOUT_MS = 3 * 60_000;

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The one export flow (R1): ask for the report, wait while the job queue generates it (polling its record), then
 * download its file. Fails with the server's reason when the job fails.
 */
export async function runExport(target: ExportTarget, format: ExportFormat, options: ExportOptions = {}): Promise<Report> {
  const { signal, onStage, pollIntervalMs = EXPORT_POLL_INTERVAL_MS, timeoutMs = EXPORT_TIMEOUT_MS } = options;
  onStage?.('loading');
  let report = await requestExport(target, format, signal);
  const deadline = Date.now() + timeoutMs;
  // Other status ids than generated and failed are the queue's own states: keep waiting.
  while (report.status.id !== ReportStatus.Generated) {
    if (report.status.id === ReportStatus.Failed) throw new ReportError(report.error || REPORT_MESSAGES.failed);
    if (Date.now() >= deadline) throw new ReportError(REPORT_MESSAGES.stillGenerating);
    onStage?.('generating');
    await pause(pollIntervalMs, signal);
    report = await getReport(report._id, signal);
  }
  onStage?.('loading');
  await downloadReport(report, signal);
  return report;
}
