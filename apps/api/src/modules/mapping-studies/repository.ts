import type { Db } from '../../db/database';
import type { TenantScope } from '../../lib/tenant-scope';

/** The SQL of thermal mapping studies (X12, ADR 0083). Reads take a TenantScope; a study outside it is absent. */

export interface NewMappingStudy {
  enterpriseId: string;
  userId: string;
  locationId: string | null;
  reportId: string;
  name: string;
  from: Date;
  to: Date;
  min: number;
  max: number;
  createdAt: Date;
  sensors: Array<{ deviceId: string; mac: string; name: string }>;
}

/** Records a study and its sensors (in the transaction that queues its report). */
export async function insertMappingStudy(db: Db, study: NewMappingStudy): Promise<string> {
  const { id } = await db
    .insertInto('mapping_studies')
    .values({
      enterprise_id: study.enterpriseId,
      user_id: study.userId,
      location_id: study.locationId,
      report_id: study.reportId,
      name: study.name,
      period_from: study.from,
      period_to: study.to,
      temperature_min: study.min,
      temperature_max: study.max,
      created_at: study.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('mapping_study_sensors')
    .values(study.sensors.map((s, position) => ({ study_id: id, position, device_id: s.deviceId, mac: s.mac, name: s.name })))
    .execute();
  return id;
}

function studyQuery(db: Db) {
  return db
    .selectFrom('mapping_studies as m')
    .leftJoin('locations as l', 'l.id', 'm.location_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.id', 'm.enterprise_id', 'm.report_id', 'm.name', 'm.period_from', 'm.period_to', 'm.temperature_min', 'm.temperature_max',
      'm.created_at', 'm.location_id', 'l.name as location_name', 'u.name as user_name',
    ]);
}

export type MappingStudyRow = Awaited<ReturnType<ReturnType<typeof studyQuery>['executeTakeFirstOrThrow']>>;
export interface MappingStudySensorRow {
  study_id: string;
  position: number;
  device_id: string | null;
  mac: string;
  name: string;
}

/** The enterprise's studies (the super admin: all), newest first. Studies are enterprise records: admins only. */
export async function listMappingStudies(db: Db, scope: TenantScope, limit: number): Promise<MappingStudyRow[]> {
  let query = studyQuery(db);
  if (scope.kind !== 'all') {
    if (!scope.enterpriseId) return [];
    query = query.where('m.enterprise_id', '=', scope.enterpriseId);
  }
  return query.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
}

/** The study whose report this is (the report job reads it; the export call already checked the caller). */
export async function findMappingStudyByReport(db: Db, reportId: string): Promise<MappingStudyRow | undefined> {
  return studyQuery(db).where('m.report_id', '=', reportId).executeTakeFirst();
}

/** The sensors of these studies, in their order. */
export async function sensorsOfStudies(db: Db, studyIds: readonly string[]): Promise<Map<string, MappingStudySensorRow[]>> {
  const map = new Map<string, MappingStudySensorRow[]>();
  if (studyIds.length === 0) return map;
  const rows = await db.selectFrom('mapping_study_sensors').selectAll().where('study_id', 'in', [...studyIds]).orderBy('study_id').orderBy('position').execute();
  for (const row of rows) map.set(row.study_id, [...(map.get(row.study_id) ?? []), row]);
  return map;
}
