import { MAPPING_STUDY_MESSAGES as M, parseBoundedInstant, type CreateMappingStudyBody, type MappingStudy } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { findDeviceByMacInScope } from '../devices/repository';
import { findLocation } from '../locations/repository';
import type { ReportActor, ReportService } from '../reports/service';
import { insertMappingStudy, listMappingStudies, sensorsOfStudies } from './repository';

/** GET /api/mapping-studies answers at most this many, the newest. */
export const MAPPING_STUDY_LIST_MAX = 200;

type ValidBody = {
  name: string;
  location_id?: string | null | undefined;
  macs: string[];
  from: string;
  to: string;
  min: number;
  max: number;
};

/**
 * Thermal mapping studies (X12, issue 24 point 4, ADR 0083). A study checks its sensors and location within the
 * caller's enterprise, then its report goes through the report queue: the same caps, job, files and links.
 */
export class MappingStudyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly reports: Pick<ReportService, 'queueMappingStudy' | 'byIds'>,
  ) {}

  async create(actor: ReportActor, body: ValidBody & Pick<CreateMappingStudyBody, 'name'>): Promise<MappingStudy> {
    const { scope } = actor;
    const sensors: Array<{ deviceId: string; num: number; mac: string; name: string; enterpriseId: string | null }> = [];
    for (const mac of body.macs) {
      // Another enterprise's MAC is, to this caller, a MAC that does not exist.
      const found = await findDeviceByMacInScope(this.db, scope, mac);
      if (!found) throw notFound(M.deviceNotFound(mac));
      sensors.push({ deviceId: found.device._id, num: found.num, mac: found.device.mac, name: found.device.name, enterpriseId: found.device.enterprise?._id ?? null });
    }
    const enterpriseId = sensors[0]!.enterpriseId;
    // The super admin reaches every enterprise: one study is still one enterprise's space.
    if (!enterpriseId || sensors.some((s) => s.enterpriseId !== enterpriseId)) throw badRequest(M.mixedEnterprises);
    let locationId: string | null = null;
    if (body.location_id) {
      const location = await findLocation(this.db, scope, body.location_id);
      if (!location) throw notFound(M.locationNotFound);
      if (location.enterprise._id !== enterpriseId) throw badRequest(M.locationOfAnotherEnterprise);
      locationId = location.id;
    }
    const window = { from: new Date(parseBoundedInstant(body.from, { requireOffset: true })!), to: new Date(parseBoundedInstant(body.to, { requireOffset: true })!) };
    const now = this.clock.now();
    const report = await this.reports.queueMappingStudy(
      actor,
      { enterpriseId, name: body.name, window, deviceNums: sensors.map((s) => s.num) },
      async (trx, reportId) => {
        await insertMappingStudy(trx, {
          enterpriseId, userId: actor.userId, locationId, reportId, name: body.name, from: window.from, to: window.to,
          min: body.min, max: body.max, createdAt: now, sensors,
        });
      },
    );
    const [study] = await this.list(scope, report._id);
    return study!;
  }

  /** The enterprise's studies with their reports (status, link), newest first; `reportId` narrows to one. */
  async list(scope: TenantScope, reportId?: string): Promise<MappingStudy[]> {
    let rows = await listMappingStudies(this.db, scope, MAPPING_STUDY_LIST_MAX);
    if (reportId) rows = rows.filter((r) => r.report_id === reportId);
    const sensors = await sensorsOfStudies(this.db, rows.map((r) => r.id));
    const reports = await this.reports.byIds(rows.map((r) => r.report_id));
    return rows.map((row) => ({
      _id: row.id,
      name: row.name,
      location: row.location_id && row.location_name ? { _id: row.location_id, name: row.location_name } : null,
      sensors: (sensors.get(row.id) ?? []).map((s) => ({ mac: s.mac, name: s.name })),
      from: row.period_from.toISOString(),
      to: row.period_to.toISOString(),
      min: row.temperature_min,
      max: row.temperature_max,
      created_at: row.created_at.toISOString(),
      user: row.user_name !== null ? { name: row.user_name } : null,
      report: reports.get(row.report_id)!,
    }));
  }
}
