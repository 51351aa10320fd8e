import { sql } from 'kysely';
import type { CalibrationPoint } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { TenantScope } from '../../lib/tenant-scope';

/** The SQL of calibration certificates (ADR 0077). Dates are read as 'YYYY-MM-DD' text, never as a Date in some zone. */

const day = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

function calibrationQuery(db: Db) {
  return db
    .selectFrom('calibrations as c')
    .innerJoin('devices as d', 'd.id', 'c.device_id')
    .leftJoin('users as u', 'u.id', 'c.created_by')
    .select([
      'c.id', 'c.device_id', 'c.laboratory', 'c.certificate_number', 'c.points', 'c.file_name', 'c.file_path', 'c.file_size',
      'c.sha256', 'c.created_at', 'c.created_by', 'u.name as created_by_name', 'd.enterprise_id',
      day('c.calibrated_at').as('calibrated_at'),
      day('c.due_at').as('due_at'),
    ]);
}

export type CalibrationRow = Awaited<ReturnType<ReturnType<typeof calibrationQuery>['executeTakeFirstOrThrow']>>;

/** A device's certificates, the one in force (latest calibration) first. */
export async function listCalibrations(db: Db, deviceId: string): Promise<CalibrationRow[]> {
  return calibrationQuery(db).where('c.device_id', '=', deviceId).orderBy('c.calibrated_at', 'desc').orderBy('c.created_at', 'desc').execute();
}

/** A certificate whose device the scope reaches (an enterprise's admin: its devices; the super admin: all). */
export async function findCalibrationInScope(db: Db, scope: TenantScope, id: string): Promise<CalibrationRow | undefined> {
  let query = calibrationQuery(db).where('c.id', '=', id);
  if (scope.kind !== 'all') query = query.where('d.enterprise_id', '=', scope.enterpriseId ?? '00000000-0000-0000-0000-000000000000');
  return query.executeTakeFirst();
}

export interface NewCalibration {
  id: string;
  deviceId: string;
  calibratedAt: string;
  dueAt: string;
  laboratory: string;
  certificateNumber: string;
  points: CalibrationPoint[];
  fileName: string;
  filePath: string;
  fileSize: number;
  sha256: string;
  createdBy: string;
  at: Date;
}

export async function insertCalibration(db: Db, c: NewCalibration): Promise<void> {
  await db
    .insertInto('calibrations')
    .values({
      id: c.id,
      device_id: c.deviceId,
      calibrated_at: c.calibratedAt,
      due_at: c.dueAt,
      laboratory: c.laboratory,
      certificate_number: c.certificateNumber,
      points: JSON.stringify(c.points),
      file_name: c.fileName,
      file_path: c.filePath,
      file_size: c.fileSize,
      sha256: c.sha256,
      created_by: c.createdBy,
      created_at: c.at,
    })
    .execute();
}

/** Each device's certificate in force (its latest calibration) whose due date is on or before `until`. */
export async function currentCertificatesDueBy(db: Db, scope: TenantScope, until: string) {
  const enterprise = scope.kind === 'all' ? null : (scope.enterpriseId ?? '00000000-0000-0000-0000-000000000000');
  const { rows } = await sql<{
    calibration_id: string; certificate_number: string; laboratory: string; calibrated_at: string; due_at: string;
    device_id: string; device_name: string; mac: string; enterprise_id: string | null; enterprise_name: string | null;
  }>`
    SELECT cur.id AS calibration_id, cur.certificate_number, cur.laboratory,
      to_char(cur.calibrated_at, 'YYYY-MM-DD') AS calibrated_at, to_char(cur.due_at, 'YYYY-MM-DD') AS due_at,
      d.id AS device_id, d.name AS device_name, d.mac, d.enterprise_id, e.name AS enterprise_name
    FROM (
      SELECT DISTINCT ON (c.device_id) c.*
      FROM calibrations c
      ORDER BY c.device_id, c.calibrated_at DESC, c.created_at DESC
    ) cur
    JOIN devices d ON d.id = cur.device_id
    LEFT JOIN enterprises e ON e.id = d.enterprise_id
    WHERE cur.due_at <= ${until}::date
      AND (${enterprise}::uuid IS NULL OR d.enterprise_id = ${enterprise}::uuid)
    ORDER BY cur.due_at, d.name, d.id`.execute(db);
  return rows;
}

/**
 * Each device's certificate in force on the day `asOf` ('YYYY-MM-DD'): the latest calibration made on or before that
 * day, whatever was added since. What a report prints for its period (ADR 0077).
 */
export async function certificatesInForce(db: Db, deviceIds: readonly string[], asOf: string) {
  if (deviceIds.length === 0) return new Map<string, { certificateNumber: string; laboratory: string; calibratedAt: string; dueAt: string }>();
  const rows = await db
    .selectFrom('calibrations as c')
    .select(['c.device_id', 'c.certificate_number', 'c.laboratory', day('c.calibrated_at').as('calibrated_at'), day('c.due_at').as('due_at')])
    .distinctOn('c.device_id')
    .where('c.device_id', 'in', [...deviceIds])
    .where('c.calibrated_at', '<=', asOf)
    .orderBy('c.device_id')
    .orderBy('c.calibrated_at', 'desc')
    .orderBy('c.created_at', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.device_id, { certificateNumber: r.certificate_number, laboratory: r.laboratory, calibratedAt: r.calibrated_at, dueAt: r.due_at }]));
}
