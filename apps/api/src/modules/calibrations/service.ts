import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ReadStream } from 'node:fs';
import {
  CALIBRATION_DUE_DAYS,
  CALIBRATION_MAX_BYTES,
  CALIBRATION_MESSAGES as M,
  CalibrationFields,
  CalibrationPoints,
  calibrationStatus,
  daysBetween,
  textProblem,
  type Calibration,
  type CalibrationDue,
  type CalibrationLimits,
} from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, gone, notFound } from '../../lib/errors';
import type { ReceivedForm } from '../../lib/form-upload';
import type { TenantScope } from '../../lib/tenant-scope';
import { addDays, localDay } from '../../lib/time-zone';
import { recordAuditEvent } from '../audit-trail/repository';
import { findDeviceInScope } from '../devices/repository';
import type { PdfChecker } from './pdf-check';
import { currentCertificatesDueBy, findCalibrationInScope, insertCalibration, listCalibrations, type CalibrationRow } from './repository';
import type { CalibrationStorage } from './storage';

export interface CertificateFile {
  stream: ReadStream;
  size: number;
  filename: string;
  sha256: string;
}

/** A certificate may be valid at most this long (the longest intervals laboratories give are a few years). */
const MAX_VALIDITY_DAYS = 10 * 366;
const FILE_NAME_MAX = 120;

/** The client's file name, reduced to its last segment in plain text; a name that cannot be shown safely is replaced. */
function cleanFileName(name: string | undefined, certificateNumber: string): string {
  const base = path.posix.basename((name ?? '').replace(/\\/g, '/')).normalize('NFC').trim();
  if (!base || base === '.' || base === '..' || textProblem(base, 'O nome', { max: FILE_NAME_MAX })) return `certificado-${certificateNumber.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`;
  return base;
}

/** The first problem of the form's fields, as the 400 users read. */
function parseFields(fields: Record<string, string>): CalibrationFields {
  const parsed = CalibrationFields.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? M.notMultipart);
  return parsed.data;
}

/**
 * Calibration certificates per sensor (X12, ADR 0077): added by the administrators of the device's enterprise or the
 * super admin, as a PDF checked by its content; never changed nor deleted (the latest calibration is in force). The
 * days are the certificate's own; "today" is the day in REPORT_TIME_ZONE.
 */
export class CalibrationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timeZone: string,
    readonly storage: CalibrationStorage,
    private readonly pdfs: PdfChecker,
  ) {}

  readonly maxBytes = CALIBRATION_MAX_BYTES;

  limits(): CalibrationLimits {
    return { max_bytes: this.maxBytes };
  }

  /** Today, as the certificates count days. */
  today(): string {
    return localDay(this.clock.now(), this.timeZone);
  }

  /**
   * What can be refused before the file is stored: a device the caller does not reach, and fields already sent that
   * are wrong. The decisive checks are `add`'s.
   */
  async checkBeforeFile(scope: TenantScope, deviceId: string, fields: Record<string, string>): Promise<void> {
    await this.device(scope, deviceId);
    if (fields.calibrated_at !== undefined && fields.due_at !== undefined && fields.laboratory !== undefined && fields.certificate_number !== undefined) {
      this.checkDates(parseFields(fields));
    }
  }

  /** Records the certificate of a received form; its temporary file is kept under the record's id or removed. */
  async add(scope: TenantScope, deviceId: string, form: ReceivedForm, userId: string): Promise<Calibration> {
    const temporary = form.file?.temporary ?? null;
    let kept: string | null = null;
    try {
      const device = await this.device(scope, deviceId);
      const fields = parseFields(form.fields);
      this.checkDates(fields);
      const file = form.file;
      if (!file) throw badRequest(M.fileRequired);
      if (file.size === 0) throw badRequest(M.fileEmpty);
      // By its content: the header and a parse (in a thread), never the name or the declared type.
      const check = await this.pdfs.check(this.storage.pathOf(file.temporary));
      if (!check.pdf) throw badRequest(M.notPdf);

      const id = randomUUID();
      await this.db.transaction().execute(async (trx) => {
        kept = await this.storage.keep(file.temporary, id);
        await insertCalibration(trx, {
          id,
          deviceId: device._id,
          calibratedAt: fields.calibrated_at,
          dueAt: fields.due_at,
          laboratory: fields.laboratory,
          certificateNumber: fields.certificate_number,
          points: fields.points,
          fileName: cleanFileName(file.filename, fields.certificate_number),
          filePath: kept,
          fileSize: file.size,
          sha256: file.sha256,
          createdBy: userId,
          at: this.clock.now(),
        });
      });
      const added = (await listCalibrations(this.db, device._id)).find((row) => row.id === id);
      return this.view(added!, await this.currentId(device._id));
    } catch (error) {
      // Whatever refused the certificate, its file goes: the folder holds only files of recorded certificates.
      if (kept) await this.storage.remove(kept);
      else if (temporary) await this.storage.remove(temporary);
      if (isUniqueViolation(error, 'calibrations_certificate_idx')) throw conflict(M.duplicate);
      throw error;
    }
  }

  async list(scope: TenantScope, deviceId: string): Promise<Calibration[]> {
    const device = await this.device(scope, deviceId);
    const rows = await listCalibrations(this.db, device._id);
    return rows.map((row) => this.view(row, rows[0]?.id ?? null));
  }

  /** The certificate's PDF, the bytes as uploaded; the download goes into the audit trail like a report's. */
  async file(scope: TenantScope, id: string): Promise<CertificateFile> {
    const row = await findCalibrationInScope(this.db, scope, id);
    if (!row) throw notFound(M.notFound);
    const size = await this.storage.size(row.file_path);
    if (size === null) throw gone(M.fileMissing);
    await recordAuditEvent(this.db, { enterpriseId: row.enterprise_id, action: 'download', entity: 'calibration', entityId: row.id, subjectIds: [row.device_id], after: { sha256: row.sha256 } });
    return { stream: this.storage.open(row.file_path), size, filename: row.file_name, sha256: row.sha256 };
  }

  /** Devices whose certificate in force is due within CALIBRATION_DUE_DAYS or overdue, the most urgent first. */
  async due(scope: TenantScope): Promise<CalibrationDue[]> {
    const today = this.today();
    const rows = await currentCertificatesDueBy(this.db, scope, addDays(today, CALIBRATION_DUE_DAYS));
    return rows.map((r) => ({
      device: { _id: r.device_id, name: r.device_name, mac: r.mac, enterprise: r.enterprise_id && r.enterprise_name ? { _id: r.enterprise_id, name: r.enterprise_name } : null },
      calibration: { _id: r.calibration_id, certificate_number: r.certificate_number, laboratory: r.laboratory, calibrated_at: r.calibrated_at, due_at: r.due_at },
      status: calibrationStatus(r.due_at, today) === 'overdue' ? 'overdue' : 'due',
      days: daysBetween(today, r.due_at),
    }));
  }

  private async device(scope: TenantScope, deviceId: string) {
    const device = await findDeviceInScope(this.db, scope, deviceId);
    if (!device) throw notFound(M.deviceNotFound);
    return device;
  }

  private checkDates(fields: CalibrationFields): void {
    if (fields.due_at <= fields.calibrated_at) throw badRequest(M.dueBeforeCalibration);
    // A day of slack: a laboratory a zone ahead may date a certificate "tomorrow" here.
    if (fields.calibrated_at > addDays(this.today(), 1)) throw badRequest(M.calibratedInFuture);
    if (daysBetween(fields.calibrated_at, fields.due_at) > MAX_VALIDITY_DAYS) throw badRequest(M.validityTooLong);
  }

  private async currentId(deviceId: string): Promise<string | null> {
    return (await listCalibrations(this.db, deviceId))[0]?.id ?? null;
  }

  private view(row: CalibrationRow, currentId: string | null): Calibration {
    const points = CalibrationPoints.safeParse(row.points);
    return {
      _id: row.id,
      device_id: row.device_id,
      calibrated_at: row.calibrated_at,
      due_at: row.due_at,
      laboratory: row.laboratory,
      certificate_number: row.certificate_number,
      points: points.success ? points.data : [],
      file_name: row.file_name,
      file_size: row.file_size,
      sha256: row.sha256,
      created_at: row.created_at.toISOString(),
      created_by: row.created_by && row.created_by_name ? { _id: row.created_by, name: row.created_by_name } : null,
      current: row.id === currentId,
      status: calibrationStatus(row.due_at, this.today()),
    };
  }
}
