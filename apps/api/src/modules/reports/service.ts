import { createHash } from 'node:crypto';
import { recordAuditEvent } from '../audit-trail/repository';
import type { ReadStream } from 'node:fs';
import {
  REPORT_KIND_NAMES,
  REPORT_MESSAGES,
  RETENTION_MESSAGES,
  ReportStatus,
  z,
  type ExcelGenerationResult,
  type HistoryFilter,
  type Report,
  type ReportFileType,
  type ReportKind,
  type ReportValidation,
} from '@sentinela/contract';
import type { Insertable } from 'kysely';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { ReportsTable } from '../../db/schema';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, conflict, gone, notFound } from '../../lib/errors';
import { Semaphore } from '../../lib/semaphore';
import { instantFromText, wallClockAt, type WallClock } from '../../lib/time-zone';
import type { TenantScope } from '../../lib/tenant-scope';
import { findDeviceByMacInScope, listDevicesInScope } from '../devices/repository';
import { resolveWindow, type HistoryWindow } from '../readings/history-repository';
import { TRAVEL_MESSAGES } from '../travels/messages';
import { findTravelDeviceByMac, findTravelInScope, type TravelRow } from '../travels/repository';
import type { TravelService } from '../travels/service';
import { countReadings, findTravelReportDevices, type ReadingSelection } from './data-repository';
import { buildExcelTemplate } from './excel-template';
import { readExcelUpload, type RowError } from './excel-intake';
import { EXCEL_ROW_MESSAGES, REPORT_SERVER_MESSAGES as M } from './messages';
import { loadOrCreateSigningIdentity } from '../../reports/signing/certificate';
import { pdfTimestamps } from '../../reports/signing/pdf-timestamps';
import { fileTimestampAnswer, type ReportTimestamps } from './timestamps';
import { findInvoiceDocumentBySha256 } from '../billing/repository';
import type { SpreadsheetReaderPool } from './excel-upload/reader-pool';
import type { RenderPool } from './render/render-pool';
import type { SigningSource } from './render/render-task';
import { admitReports, queuedReports, type AdmittedReport } from './queue-admission';
import { buildRenderTask, ReportGenerationError } from './report-input';
import {
  filtersJson,
  findGeneratedBySha256,
  findReport,
  findReportInScope,
  findReportsByIds,
  listReportsInScope,
  markFailed,
  markGenerated,
  type ReportRow,
} from './repository';
import type { ReportStorage } from './storage';
import { checkReportLink } from './file-links';
import { approvalOf, CONTENT_TYPES, filesPath, ReportView, studyNameOf } from './view';
import type { EventBus } from '../../realtime/event-bus';
import { recordEvents } from '../webhooks/outbox';

export const REPORT_JOB = 'report.generate';
export const ReportJobPayload = z.object({ reportId: z.uuid() });
export type ReportJobPayload = z.infer<typeof ReportJobPayload>;

/** GET /api/reports answers at most this many, the newest. */
export const REPORT_LIST_MAX = 1000;

/**
 * Export calls handled at once (each is a few queries: device, count, insert, queue). Fifty clicks at once would
 * otherwise queue some 300 statements for the connection pool ahead of every other request; waiting here instead,
 * they leave the pool to everyone else and still answer within a second.
 */
const EXPORTS_AT_ONCE = 2;

/** Who asks for a report. */
export interface ReportActor {
  userId: string;
  scope: TenantScope;
}

/**
 * How a request reaches a report's file (ADR 0070): with a session (within its scope), with a link's capability
 * (`download_url`; a session that may see the report also passes when the link has expired), or with the bare id
 * and nothing else — what the documents' client does right after asking for the report.
 */
export type FileAccess = { scope: TenantScope | null; capability?: string };

/** A generated file, ready to stream. */
export interface ReportFile {
  stream: ReadStream;
  size: number;
  contentType: string;
  filename: string;
}

/**
 * Reports (R1, R3, R5, R6). An export call checks that the caller reaches the device or travel, records the report
 * (status 1) and queues a job; the job gathers the data, has a render thread draw and sign the file, and records it
 * (status 2) or the reason it could not be made (status 3). Files download only within the caller's reports.
 */
export class ReportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly queue: JobQueue,
    private readonly pool: RenderPool,
    private readonly spreadsheets: SpreadsheetReaderPool,
    private readonly storage: ReportStorage,
    private readonly signing: SigningSource,
    private readonly log: JobLog,
    private readonly events: EventBus,
    /** Tracking codes (ADR 72): a code holder's reports of the travel the code shows. */
    private readonly travels: Pick<TravelService, 'readableByCode'>,
    /** RFC 3161 timestamps of the reports' signatures (ADR 79). */
    private readonly timestamps: ReportTimestamps,
  ) {
    this.view = new ReportView(clock, config.reportLinkMinutes, config.reportTimeZone);
  }

  private readonly exportGate = new Semaphore(EXPORTS_AT_ONCE);
  private readonly view: ReportView;

  /** Before the workers start: the files' folder, and the signing identity created once when there is none. */
  async prepare(): Promise<void> {
    await this.storage.init();
    this.pool.useIdentity(await loadOrCreateSigningIdentity(this.signing));
    // Tests build dozens of apps that mostly never render: their threads start with the first report instead.
    if (this.config.reportWorkers > 0 && this.config.env !== 'test') this.pool.warm();
  }

  // --- Export calls (R1) ---

  /** A device's history with the history filter (`/api/beacon-device/history/mac/{mac}/pdf|excel`). */
  async exportDeviceHistory(actor: ReportActor, mac: string, filter: HistoryFilter, type: ReportFileType): Promise<Report> {
    return this.exportGate.run(async () => {
      const found = await findDeviceByMacInScope(this.db, actor.scope, mac);
      if (!found) throw notFound(M.deviceNotFound);
      const window = resolveWindow(filter, this.clock.now(), this.config.reportTimeZone);
      await this.checkSize([{ deviceNum: found.num, window, filter, travelId: null }]);
      const values: Record<string, unknown> = { dateInit: window.from.toISOString(), dateEnd: window.to.toISOString() };
      for (const key of ['minTemp', 'maxTemp', 'minHum', 'maxHum'] as const) if (filter[key] !== undefined) values[key] = filter[key];
      return this.queueReport(actor, {
        enterprise_id: found.device.enterprise?._id ?? null,
        device_id: found.device._id,
        travel_id: null,
        kind: 'device-history',
        type,
        filters: filtersJson(values),
      });
    });
  }

  /** One device's readings during a travel (`/api/travels/{id}/devices/{mac}/history/pdf|excel`). */
  async exportTravelDeviceHistory(actor: ReportActor, travelId: string, mac: string, type: ReportFileType): Promise<Report> {
    return this.exportGate.run(async () => {
      const travel = await this.travel(actor.scope, travelId);
      const device = await findTravelDeviceByMac(this.db, travel.id, mac);
      if (!device) throw notFound(TRAVEL_MESSAGES.deviceNotInTravel);
      const window = this.travelWindow(travel);
      await this.checkSize([{ deviceNum: device.num, window, filter: {}, travelId: travel.id }]);
      return this.queueReport(actor, {
        enterprise_id: travel.enterprise_id,
        device_id: device.device_id,
        travel_id: travel.id,
        kind: 'travel-device-history',
        type,
        filters: filtersJson({ dateInit: window.from.toISOString(), dateEnd: window.to.toISOString() }),
      });
    });
  }

  /**
   * One device's readings during a travel, asked for by a signed-in holder of its tracking code
   * (`/api/travels/localizator/{cod}/devices/{mac}/history/pdf|excel`, ADR 72): a live code whose scope shows the
   * readings. The report is the asker's: their enterprise's queue, caps and list (a user who may see the travel gets
   * the usual travel report, the travel's enterprise's). Its pages still name the travel's enterprise as the sender.
   */
  async exportTravelDeviceHistoryByCode(actor: ReportActor, code: string, mac: string, type: ReportFileType): Promise<Report> {
    return this.exportGate.run(async () => {
      const { row: travel, view } = await this.travels.readableByCode(code, actor.scope);
      if (!travel.started_at) throw badRequest(M.travelNotStarted);
      const device = await findTravelDeviceByMac(this.db, travel.id, mac);
      if (!device) throw notFound(TRAVEL_MESSAGES.deviceNotInTravel);
      const window = this.travelWindow(travel);
      await this.checkSize([{ deviceNum: device.num, window, filter: {}, travelId: travel.id }]);
      const askerEnterprise = actor.scope.kind === 'all' ? null : actor.scope.enterpriseId;
      return this.queueReport(actor, {
        enterprise_id: view === 'full' ? travel.enterprise_id : askerEnterprise,
        device_id: device.device_id,
        travel_id: travel.id,
        kind: 'travel-device-history',
        type,
        filters: filtersJson({ dateInit: window.from.toISOString(), dateEnd: window.to.toISOString() }),
      });
    });
  }

  /** The whole travel's report (`/api/travels/{id}/html`): a signed PDF, whatever the path says (ADR 9). */
  async exportTravel(actor: ReportActor, travelId: string): Promise<Report> {
    return this.exportGate.run(async () => {
      const travel = await this.travel(actor.scope, travelId);
      const window = this.travelWindow(travel);
      const devices = await findTravelReportDevices(this.db, travel.id);
      await this.checkSize(devices.map((d) => ({ deviceNum: d.num, window, filter: {}, travelId: travel.id })));
      return this.queueReport(actor, {
        enterprise_id: travel.enterprise_id,
        device_id: null,
        travel_id: travel.id,
        kind: 'travel',
        type: 'pdf',
        filters: filtersJson({ dateInit: window.from.toISOString(), dateEnd: window.to.toISOString() }),
      });
    });
  }

  /**
   * A thermal mapping study's report (X12, ADR 0083): the caller checked the sensors and the location; this checks
   * the readings fit one report, then records the report and, in the same transaction, the study (`record`), and
   * queues it like every other report (same caps, turns, files and links).
   */
  async queueMappingStudy(
    actor: ReportActor,
    study: { enterpriseId: string; name: string; window: HistoryWindow; deviceNums: number[] },
    record: (trx: Db, reportId: string) => Promise<void>,
  ): Promise<Report> {
    return this.exportGate.run(async () => {
      await this.checkSize(study.deviceNums.map((deviceNum) => ({ deviceNum, window: study.window, filter: {}, travelId: null })));
      const values = {
        ...this.newReport(actor, this.clock.now()),
        enterprise_id: study.enterpriseId,
        device_id: null,
        travel_id: null,
        kind: 'mapping-study',
        type: 'pdf',
        filters: filtersJson({ dateInit: study.window.from.toISOString(), dateEnd: study.window.to.toISOString(), studyName: study.name }),
      };
      const [admitted] = await this.admit(actor, [values], (trx, [report]) => record(trx, report!.id));
      return this.get({ kind: 'all' }, admitted!.id);
    });
  }

  /** Report records by id, as the list answers them (the mapping studies' list shows each study's report). */
  async byIds(ids: readonly string[]): Promise<Map<string, Report>> {
    const rows = await findReportsByIds(this.db, ids);
    return new Map(rows.map((row) => [row.id, this.view.toReport(row)]));
  }

  // --- Reading reports (R3) ---

  async list(scope: TenantScope, query: { dateInit?: string | undefined; dateEnd?: string | undefined }): Promise<Report[]> {
    // A datetime-local value (no offset) is a wall-clock time of the users' zone (ADR 0071).
    const zone = this.config.reportTimeZone;
    const period = {
      from: query.dateInit ? instantFromText(query.dateInit, zone, 'start') : undefined,
      to: query.dateEnd ? instantFromText(query.dateEnd, zone, 'end') : undefined,
    };
    if (period.from && period.to && period.from > period.to) throw badRequest('A data inicial deve ser anterior à data final.');
    const rows = await listReportsInScope(this.db, scope, period, REPORT_LIST_MAX);
    return rows.map((row) => this.view.toReport(row));
  }

  async get(scope: TenantScope, id: string): Promise<Report> {
    return this.view.toReport(await this.visible(scope, id));
  }

  /**
   * The report whose file a request may open (ADR 0070), whatever its status; travel reports only from their own
   * path and the others only from theirs. One of another tenant, one on the other path and one that does not exist
   * are the same 404; a link made for another report or tampered with too; an expired link is 410; the bare id
   * without a session, past its time, 401.
   */
  async fileReport(access: FileAccess, id: string, route: 'report' | 'travel-report'): Promise<ReportRow> {
    const row = await this.reachable(access, id);
    if ((row.kind === 'travel') !== (route === 'travel-report')) throw notFound(M.notFound);
    return row;
  }

  private async reachable(access: FileAccess, id: string): Promise<ReportRow> {
    const now = this.clock.now();
    if (access.capability !== undefined) {
      const row = await findReport(this.db, id);
      if (!row || row.enterprise_disabled) throw notFound(M.notFound);
      const link = checkReportLink(access.capability, row.id, row.link_key, now);
      if (link === 'valid') return row;
      // A session that may see the report does not need the link (a list left open for hours still downloads).
      if (access.scope && (await findReportInScope(this.db, access.scope, id))) return row;
      throw link === 'expired' ? gone(M.linkExpired) : notFound(M.notFound);
    }
    if (access.scope) return this.visible(access.scope, id);
    const row = await findReport(this.db, id);
    if (!row || row.enterprise_disabled) throw notFound(M.notFound);
    // The documented client opens the file by its id alone right after asking for it: while it is generated and for
    // a while after, the id (random, 122 bits) is the capability.
    const until = row.updated_at.getTime() + this.config.reportLinkMinutes * 60_000;
    if (row.status === ReportStatus.Queued || now.getTime() < until) return row;
    throw new AppError('UNAUTHENTICATED', M.idLinkExpired);
  }

  /** Where a reachable report's file stands (the waiting page polls it). */
  fileStatus(row: ReportRow): Pick<Report, 'status' | 'error'> {
    const { status, error } = this.view.toReport(row);
    return { status, error };
  }

  /** A reachable report's file: 409 while it is being generated, 404 when it failed or its file is gone. */
  async file(row: ReportRow): Promise<ReportFile> {
    if (row.status === ReportStatus.Queued) throw conflict(REPORT_MESSAGES.stillGenerating);
    if (row.file_removed_at) throw notFound(RETENTION_MESSAGES.fileRemoved);
    if (row.status !== ReportStatus.Generated || !row.file_path) throw notFound(row.status === ReportStatus.Failed && row.error ? row.error : M.notFound);
    const size = await this.storage.size(row.file_path);
    if (size === null) {
      this.log.warn({ report: row.id, path: row.file_path }, 'report file missing');
      throw notFound(M.fileMissing);
    }
    const type = row.type as ReportFileType;
    // A download of a report is in the audit trail (X11): who took which file, by its SHA-256.
    await recordAuditEvent(this.db, { enterpriseId: row.enterprise_id, action: 'download', entity: 'report', entityId: row.id, subjectIds: [row.device_id, row.travel_id].filter((v): v is string => !!v), after: { type, sha256: row.sha256 } });
    return { stream: this.storage.open(row.file_path), size, contentType: CONTENT_TYPES[type], filename: this.view.fileName(row) };
  }

  /** What the page waiting for a report's file calls it ("Histórico do dispositivo — Geladeira Vacinas"). */
  subjectOf(row: ReportRow): string {
    const kind = REPORT_KIND_NAMES[row.kind as ReportKind] ?? 'Relatório';
    const subject =
      row.kind === 'travel' ? (row.travel_code ? `viagem ${row.travel_code}` : null) : row.kind === 'mapping-study' ? studyNameOf(row.filters) : row.device_name;
    return subject ? `${kind} — ${subject}` : kind;
  }

  // --- Validator (R6) ---

  /**
   * Valid only for the exact bytes of a PDF the platform generated: the SHA-256 recorded when the file was written
   * is the proof, so one changed byte, or a PDF made anywhere else, is not valid.
   */
  async validate(data: Buffer): Promise<ReportValidation> {
    if (!data.subarray(0, 5).equals(Buffer.from('%PDF-'))) return { valid: false, error: REPORT_MESSAGES.notPdf };
    const sha256 = createHash('sha256').update(data).digest('hex');
    const row = await findGeneratedBySha256(this.db, sha256);
    if (!row) {
      // Invoice PDFs are signed with the same certificate and recorded the same way (ADR 30).
      const invoice = await findInvoiceDocumentBySha256(this.db, sha256);
      return invoice ? { valid: true, invoice, timestamp: fileTimestampAnswer(pdfTimestamps(data)) } : { valid: false, error: REPORT_MESSAGES.notGenerated };
    }
    return {
      valid: true,
      report: { _id: row.id, kind: row.kind as ReportKind, generated_at: row.updated_at.toISOString(), enterprise: row.enterprise_name, mac: row.device_mac },
      // The file cannot carry its later approval; the validator tells it (ADR 0062).
      approval: approvalOf(row) ?? null,
      // The timestamps this very file carries (ADR 79), read from its bytes; the stored report's when it has none.
      timestamp: this.timestamps.answer(pdfTimestamps(data), row, sha256),
    };
  }

  // --- Reports from an Excel sheet (R5) ---

  async excelTemplate(scope: TenantScope): Promise<Buffer> {
    const [device] = await listDevicesInScope(this.db, scope);
    const tz = this.config.reportTimeZone;
    const today = wallClockAt(this.clock.now(), tz);
    const midnight = (w: WallClock, daysBack: number): WallClock => {
      const d = new Date(Date.UTC(w.year, w.month - 1, w.day - daysBack));
      return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0 };
    };
    return buildExcelTemplate({ mac: device?.mac ?? 'C3:00:00:00:01:01', from: midnight(today, 1), to: midnight(today, 0) }, tz);
  }

  /** Every good row becomes a queued device history report; every bad row one message, in row order. */
  async generateFromExcel(actor: ReportActor, data: Buffer): Promise<ExcelGenerationResult> {
    const { rows, errors } = await readExcelUpload(data, this.config.reportTimeZone, this.spreadsheets, {
      maxEntries: this.config.reportExcelMaxEntries,
      maxInflatedBytes: this.config.reportExcelMaxInflatedBytes,
    });
    const devices = new Map<string, Awaited<ReturnType<typeof findDeviceByMacInScope>>>();
    const accepted: Insertable<ReportsTable>[] = [];
    const now = this.clock.now();
    for (const row of rows) {
      if (!devices.has(row.mac)) devices.set(row.mac, await findDeviceByMacInScope(this.db, actor.scope, row.mac));
      const found = devices.get(row.mac);
      if (!found) {
        errors.push({ row: row.row, message: EXCEL_ROW_MESSAGES.macNotFound(row.row, row.mac) });
        continue;
      }
      const window = { from: row.from, to: row.to };
      if ((await countReadings(this.db, { deviceNum: found.num, window, filter: {}, travelId: null })) > this.config.reportMaxReadings) {
        errors.push({ row: row.row, message: EXCEL_ROW_MESSAGES.tooManyReadings(row.row, this.config.reportMaxReadings) });
        continue;
      }
      accepted.push({
        ...this.newReport(actor, now),
        enterprise_id: found.device.enterprise?._id ?? null,
        device_id: found.device._id,
        travel_id: null,
        kind: 'device-history',
        type: row.type,
        filters: filtersJson({ dateInit: row.from.toISOString(), dateEnd: row.to.toISOString() }),
      });
    }
    const admitted = await this.admit(actor, accepted);
    return { reportsToProccess: admitted.length, errors: errors.sort((a: RowError, b: RowError) => a.row - b.row).map((e) => e.message) };
  }

  // --- The job ---

  /** Generates a queued report's file (the job's handler); a report no longer queued is left as it is. */
  async generate(reportId: string): Promise<void> {
    const report = await findReport(this.db, reportId);
    if (!report) return;
    if (report.status !== ReportStatus.Queued) return this.timestamps.ensureQueued(report);
    const generatedAt = this.clock.now();
    const file = this.storage.newFile(report.id, report.type, generatedAt);
    let task;
    try {
      task = await buildRenderTask({ db: this.db, timeZone: this.config.reportTimeZone, maxReadings: this.config.reportMaxReadings, generatedAt }, report, file.absolute);
    } catch (error) {
      // Nothing to retry for: the data says no (the device is gone, the period grew too long).
      if (error instanceof ReportGenerationError) return this.recordFailure(reportId, error);
      throw error;
    }
    const result = await this.pool.run(task);
    const at = this.clock.now();
    const recorded = await this.db.transaction().execute(async (trx) => {
      const stored = { path: file.relative, size: result.size, sha256: result.sha256, timestamp: this.timestamps.columns(result.timestamp) };
      if (!(await markGenerated(trx, report.id, stored, at))) return false;
      await this.announce(trx, report, { status: 'generated', error: null }, at);
      return true;
    });
    if (!recorded) return this.storage.remove(file.relative);
    await this.timestamps.afterGeneration(report.id, result.timestamp);
    this.events.emit('report.finished', { reportId: report.id });
  }

  /** Status 3 with the reason users read; the technical error stays in the log. */
  async recordFailure(reportId: string, error: unknown): Promise<void> {
    const reason = error instanceof ReportGenerationError ? error.message : M.unexpected;
    if (!(error instanceof ReportGenerationError)) this.log.error({ err: error, report: reportId }, 'report generation failed');
    const at = this.clock.now();
    const failed = await this.db.transaction().execute(async (trx) => {
      const report = await findReport(trx, reportId);
      if (!report || report.status !== ReportStatus.Queued) return false;
      await markFailed(trx, reportId, M.failed(reason), at);
      await this.announce(trx, report, { status: 'failed', error: M.failed(reason) }, at);
      return true;
    });
    if (failed) this.events.emit('report.finished', { reportId });
  }

  /** report.ready to the enterprise's webhooks (ADR 66), in the transaction that records the outcome. */
  private async announce(trx: Db, report: ReportRow, outcome: { status: 'generated' | 'failed'; error: string | null }, at: Date): Promise<void> {
    if (!report.enterprise_id) return;
    const data = {
      report: {
        _id: report.id,
        kind: report.kind,
        type: report.type,
        status: outcome.status,
        error: outcome.error,
        // The file's stable address (ADR 0070): without a session for REPORT_LINK_MINUTES after generation, then with a token.
        file_url: outcome.status === 'generated' ? `${this.config.publicUrl}${filesPath(report)}` : null,
        device: report.device_mac ? { mac: report.device_mac, name: report.device_name ?? report.device_mac } : null,
        travel_id: report.travel_id,
      },
    };
    await recordEvents(trx, [{ enterpriseId: report.enterprise_id, type: 'report.ready', data }], at);
  }

  /** Queues again the reports left waiting without a job (a server died between recording and queueing, or mid-job). */
  async requeueWaiting(): Promise<number> {
    let requeued = 0;
    for (const report of await queuedReports(this.db)) {
      if (await this.queue.hasPending(REPORT_JOB, report.id)) continue;
      await this.sendJob(report);
      requeued += 1;
    }
    if (requeued > 0) this.log.info({ requeued }, 'reports requeued');
    // Missing timestamps whose job a stopped process did not queue (ADR 79).
    await this.timestamps.requeuePending();
    return requeued;
  }

  // --- helpers ---

  private async visible(scope: TenantScope, id: string): Promise<ReportRow> {
    const row = await findReportInScope(this.db, scope, id);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  private async travel(scope: TenantScope, id: string): Promise<TravelRow> {
    const travel = await findTravelInScope(this.db, scope, id);
    if (!travel) throw notFound(TRAVEL_MESSAGES.notFound);
    if (!travel.started_at) throw badRequest(M.travelNotStarted);
    return travel;
  }

  /** A travel covers from its start to its end, or to now while it goes on. */
  private travelWindow(travel: TravelRow): HistoryWindow {
    return { from: travel.started_at!, to: travel.finished_at ?? this.clock.now() };
  }

  /** Refuses, before anything is queued, a report with more readings than one report may hold. */
  private async checkSize(selections: ReadingSelection[]): Promise<void> {
    let total = 0;
    for (const s of selections) total += await countReadings(this.db, s);
    if (total > this.config.reportMaxReadings) throw badRequest(M.tooManyReadings(this.config.reportMaxReadings));
  }

  private newReport(actor: ReportActor, now: Date) {
    return { user_id: actor.userId, status: ReportStatus.Queued, created_at: now, updated_at: now };
  }

  private async queueReport(actor: ReportActor, values: Omit<Insertable<ReportsTable>, 'user_id' | 'status' | 'created_at' | 'updated_at'>): Promise<Report> {
    const [admitted] = await this.admit(actor, [{ ...this.newReport(actor, this.clock.now()), ...values }]);
    return this.get({ kind: 'all' }, admitted!.id);
  }

  /**
   * Records reports in the fair queue (caps per user and enterprise, a turn each: ADR 13), then queues their jobs,
   * lower turns served first. A server that dies in between leaves them queued without a job: `requeueWaiting`.
   */
  private async admit(actor: ReportActor, reports: Insertable<ReportsTable>[], alongside?: (trx: Db, admitted: AdmittedReport[]) => Promise<void>): Promise<AdmittedReport[]> {
    const admitted = await admitReports(
      this.db,
      actor.userId,
      reports,
      { perUser: this.config.reportQueueMaxPerUser, perEnterprise: this.config.reportQueueMaxPerEnterprise },
      alongside,
    );
    for (const report of admitted) await this.sendJob(report);
    return admitted;
  }

  private sendJob(report: AdmittedReport): Promise<void> {
    return this.queue.send(REPORT_JOB, { reportId: report.id }, report.id, { priority: -report.turn });
  }
}
