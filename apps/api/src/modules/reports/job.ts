import type { AppConfig } from '../../config/config';
import type { JobQueue } from '../../jobs/job-queue';
import { REPORT_JOB, ReportJobPayload, type ReportService } from './service';

/**
 * The report generation job: one report per worker at a time (REPORT_WORKERS of them), one retry for what may pass
 * (a render thread that died, a database hiccup), and after the last attempt the report's status 3 with its reason.
 */
export function defineReportJob(queue: JobQueue, reports: ReportService, config: AppConfig): void {
  queue.define<ReportJobPayload>({
    name: REPORT_JOB,
    schema: ReportJobPayload,
    concurrency: config.reportWorkers,
    retryLimit: 1,
    // A report of the maximum size takes tens of seconds; an attempt still "active" after this belonged to a dead server.
    expireInSeconds: 15 * 60,
    handler: ({ reportId }) => reports.generate(reportId),
    onFinalFailure: ({ reportId }, error) => reports.recordFailure(reportId, error),
  });
}
