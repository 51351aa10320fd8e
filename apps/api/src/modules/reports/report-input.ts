import { TRAVEL_STATUS_NAMES, type HistoryFilter, type ReportKind, type TravelStatusId } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { HistoryWindow } from '../readings/history-repository';
import { findTravelInScope } from '../travels/repository';
import { loadCoverage } from '../readings/coverage-repository';
import type { ReportCalibration, TravelSummary } from '../../reports/types';
import { localDay } from '../../lib/time-zone';
import { certificatesInForce } from '../calibrations/repository';
import { alarmsInPeriod, findReportDevice, findTravelReportDevices, readReadingColumns, travelRouteStats, type ReportDevice, type ReadingSelection } from './data-repository';
import { REPORT_SERVER_MESSAGES as M } from './messages';
import { filterInstant, type ReportRow } from './repository';
import type { PackedDeviceInput, PackedMappingInput, PackedReadings, RenderTask } from './render/render-task';
import { findMappingStudyByReport, sensorsOfStudies } from '../mapping-studies/repository';

/** A report that cannot be made, with the pt-BR reason users read after "Não foi possível gerar o relatório: ". */
export class ReportGenerationError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ReportGenerationError';
  }
}

export interface InputContext {
  db: Db;
  timeZone: string;
  maxReadings: number;
  generatedAt: Date;
}

/** The value ranges a device history export was filtered by, as stored in the report's filters. */
export function valueFilterOf(filters: Record<string, unknown>): HistoryFilter {
  const num = (key: string) => (typeof filters[key] === 'number' ? (filters[key] as number) : undefined);
  return { minTemp: num('minTemp'), maxTemp: num('maxTemp'), minHum: num('minHum'), maxHum: num('maxHum') };
}

/** The period a report covers, from its stored filters (always both ends: the export call resolved them). */
export function windowOf(report: Pick<ReportRow, 'filters' | 'created_at'>): HistoryWindow {
  const from = filterInstant(report.filters, 'dateInit');
  const to = filterInstant(report.filters, 'dateEnd');
  return { from: from ? new Date(from) : report.created_at, to: to ? new Date(to) : report.created_at };
}

/** Gathers what a queued report shows, as a task for a render thread. */
export async function buildRenderTask(ctx: InputContext, report: ReportRow, outputPath: string): Promise<RenderTask> {
  const kind = report.kind as ReportKind;
  const window = windowOf(report);
  const issuer = { name: report.user_name ?? 'Sentinela', username: report.user_username ?? '' };
  const enterprise = report.enterprise_name ? { name: report.enterprise_name } : null;
  const common = { reportId: report.id, enterprise, issuer, generatedAt: ctx.generatedAt, timeZone: ctx.timeZone };

  if (kind === 'mapping-study') return { kind: 'mapping-pdf', input: await mappingInput(ctx, report, common), outputPath };

  if (kind === 'device-history') {
    const device = report.device_id ? await findReportDevice(ctx.db, report.device_id) : undefined;
    if (!device) throw new ReportGenerationError(M.deviceGone);
    const filter = valueFilterOf(report.filters);
    const section = await deviceSection(ctx, device, { deviceNum: device.num, window, filter, travelId: null });
    const input: PackedDeviceInput = { ...common, ...section, travel: null };
    return { kind: report.type === 'xlsx' ? 'device-xlsx' : 'device-pdf', input, outputPath };
  }

  const travel = report.travel_id ? await findTravelInScope(ctx.db, { kind: 'all' }, report.travel_id) : undefined;
  if (!travel) throw new ReportGenerationError(M.travelGone);
  // A travel's pages name the travel's enterprise (the sender), also in a report its tracking code's holder asked for.
  const ofTravel = { ...common, enterprise: travel.enterprise_name ? { name: travel.enterprise_name } : common.enterprise };
  const summary: TravelSummary = {
    code: travel.code,
    status: TRAVEL_STATUS_NAMES[travel.status as TravelStatusId] ?? String(travel.status),
    origin: travel.origin_address,
    destination: travel.destiny_address,
    responsible: travel.responsible_name,
    startedAt: travel.started_at,
    finishedAt: travel.finished_at,
  };

  if (kind === 'travel-device-history') {
    const [device] = report.device_id ? await findTravelReportDevices(ctx.db, travel.id, report.device_id) : [];
    if (!device) throw new ReportGenerationError(M.deviceGone);
    const section = await deviceSection(ctx, device, { deviceNum: device.num, window, filter: {}, travelId: travel.id });
    const input: PackedDeviceInput = { ...ofTravel, ...section, travel: summary };
    return { kind: report.type === 'xlsx' ? 'device-xlsx' : 'device-pdf', input, outputPath };
  }

  // The whole travel: one section per device; the reading limit holds for all sections together.
  const devices = [];
  let budget = ctx.maxReadings;
  for (const device of await findTravelReportDevices(ctx.db, travel.id)) {
    const section = await deviceSection({ ...ctx, maxReadings: budget }, device, { deviceNum: device.num, window, filter: {}, travelId: travel.id });
    budget -= section.readings.count;
    devices.push(section);
  }
  const route = await travelRouteStats(ctx.db, travel.id, window);
  return { kind: 'travel-pdf', input: { ...ofTravel, travel: summary, route, devices }, outputPath };
}

/** A thermal mapping study (X12, ADR 0083): its sensors' readings over the study, within one report's reading limit. */
async function mappingInput(ctx: InputContext, report: ReportRow, common: Omit<PackedMappingInput, 'study' | 'sensors'>): Promise<PackedMappingInput> {
  const study = await findMappingStudyByReport(ctx.db, report.id);
  if (!study) throw new ReportGenerationError(M.studyGone);
  const window = { from: study.period_from, to: study.period_to };
  const sensors: PackedMappingInput['sensors'] = [];
  let budget = ctx.maxReadings;
  for (const sensor of (await sensorsOfStudies(ctx.db, [study.id])).get(study.id) ?? []) {
    const device = sensor.device_id ? await findReportDevice(ctx.db, sensor.device_id) : undefined;
    if (!device) throw new ReportGenerationError(M.deviceGone);
    const columns = await readReadingColumns(ctx.db, { deviceNum: device.num, window, filter: {}, travelId: null }, budget);
    if (!columns) throw new ReportGenerationError(M.readingsGrew(ctx.maxReadings));
    budget -= columns.count;
    // The name the sensor had when the study was made: it says where the sensor stood.
    sensors.push({ name: sensor.name, mac: sensor.mac, serial: device.serial, calibration: await calibrationAsOf(ctx, device.id, window.to), readings: columns.pack() });
  }
  return {
    ...common,
    study: { name: study.name, location: study.location_name, from: window.from, to: window.to, limits: { min: study.temperature_min, max: study.temperature_max } },
    sensors,
  };
}

async function deviceSection(ctx: InputContext, device: ReportDevice, selection: ReadingSelection) {
  const columns = await readReadingColumns(ctx.db, selection, ctx.maxReadings);
  if (!columns) throw new ReportGenerationError(M.readingsGrew(ctx.maxReadings));
  const readings: PackedReadings = columns.pack();
  const f = selection.filter;
  return {
    device: { name: device.name, mac: device.mac, serial: device.serial },
    calibration: await calibrationAsOf(ctx, device.id, selection.window.to),
    period: { from: selection.window.from, to: selection.window.to },
    valueFilters: { temperature: { min: f.minTemp ?? null, max: f.maxTemp ?? null }, humidity: { min: f.minHum ?? null, max: f.maxHum ?? null } },
    limits: device.limits,
    readings,
    alarms: await alarmsInPeriod(ctx.db, device.id, selection.window),
    coverage: await loadCoverage(ctx.db, device, selection.window, ctx.generatedAt, selection.travelId),
  };
}

/** The device's certificate in force on the period's last day (in the report's zone), and whether it had expired then. */
async function calibrationAsOf(ctx: InputContext, deviceId: string, end: Date): Promise<ReportCalibration> {
  const day = localDay(end, ctx.timeZone);
  const certificate = (await certificatesInForce(ctx.db, [deviceId], day)).get(deviceId);
  if (!certificate) return { state: 'none' };
  return {
    state: certificate.dueAt < day ? 'overdue' : 'valid',
    certificateNumber: certificate.certificateNumber,
    laboratory: certificate.laboratory,
    dueAt: certificate.dueAt,
  };
}
