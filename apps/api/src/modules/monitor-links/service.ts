import type { AppConfig } from '../../config/config';
import {
  API_VERSION,
  MONITOR_LINK_MAX_DAYS,
  MONITOR_LINK_MESSAGES as M,
  monitorPagePath,
  TravelStatus,
  type CreatedMonitorLink,
  type CreateMonitorLinkBody,
  type MonitorDevice,
  type MonitorLink,
  type MonitorView,
} from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { newSecret, sha256 } from '../../lib/tokens';
import type { EventBus } from '../../realtime/event-bus';
import type { AccessLogWriter } from '../access-log/writer';
import type { ClientMeta } from '../auth/session-service';
import { enterpriseExists } from '../enterprises/repository';
import { travelDeviceRows } from '../travels/repository';
import { toTravelDevice } from '../travels/view';
import { expectedIntervalOf } from '../readings/expected-interval';
import {
  devicePositions,
  devicesOfEnterprise,
  findMonitorLinkById,
  findMonitorLinkByTokenHash,
  findMonitorLinkInScope,
  insertMonitorLink,
  listMonitorLinks,
  monitoredDevices,
  monitoredTravels,
  openAlarmsOf,
  recordMonitorLinkUse,
  revokeMonitorLink,
  travelsOfEnterprise,
  type MonitorLinkRow,
  type MonitorLinkScope,
} from './repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tokens carry a recognisable prefix, so a leaked one is easy to spot in logs or chats. */
const TOKEN_PREFIX = 'mon_';

/** How a link was used: the monitor page opening (HTTP) or its live connection (socket). */
export type MonitorUseKind = 'page' | 'live';

/** What the monitor is made of, for its live rooms. */
export interface MonitorTargets {
  deviceIds: string[];
  travelIds: string[];
}

function linkScope(scope: TenantScope): MonitorLinkScope {
  if (scope.kind === 'all' || scope.kind === 'enterprise') return scope;
  throw forbidden();
}

const routeText = (origin: string, destiny: string) => `${origin} → ${destiny}`;

/**
 * Read-only monitor links (issue 11, item 6; ADR 26): created by an enterprise's administrator over its travels and
 * devices, shown once, stored as a hash, revocable, expiring; each use is written to the access log.
 */
export class MonitorLinkService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly accessLog: AccessLogWriter,
    /** Read at each use: without PUBLIC_URL the server completes it once it listens (ADR 69). */
    private readonly config: Pick<AppConfig, 'publicUrl'>,
  ) {}

  list(scope: TenantScope): Promise<MonitorLink[]> {
    return listMonitorLinks(this.db, linkScope(scope));
  }

  async create(scope: TenantScope, body: CreateMonitorLinkBody, createdBy: string): Promise<CreatedMonitorLink> {
    const own = linkScope(scope);
    let enterpriseId: string;
    if (own.kind === 'enterprise') {
      if (body.enterprise_id && body.enterprise_id !== own.enterpriseId) throw notFound(M.enterpriseNotFound);
      enterpriseId = own.enterpriseId;
    } else {
      if (!body.enterprise_id) throw badRequest(M.enterpriseRequired);
      if (!(await enterpriseExists(this.db, body.enterprise_id))) throw notFound(M.enterpriseNotFound);
      enterpriseId = body.enterprise_id;
    }
    const deviceIds = [...new Set(body.device_ids)];
    const travelIds = [...new Set(body.travel_ids)];
    if (deviceIds.length === 0 && travelIds.length === 0) throw badRequest(M.emptyScope);

    const now = this.clock.now();
    const expiresAt = new Date(body.expires_at);
    if (expiresAt.getTime() <= now.getTime()) throw badRequest(M.expiryInPast);
    if (expiresAt.getTime() > now.getTime() + MONITOR_LINK_MAX_DAYS * DAY_MS) throw badRequest(M.expiryTooFar);

    // Every reference within the enterprise, or nothing is stored: another enterprise's ids are "not found".
    const devices = await devicesOfEnterprise(this.db, enterpriseId, deviceIds);
    if (deviceIds.some((id) => !devices.has(id))) throw notFound(M.deviceNotFound);
    const travels = await travelsOfEnterprise(this.db, enterpriseId, travelIds);
    if (travelIds.some((id) => !travels.has(id))) throw notFound(M.travelNotFound);

    const token = TOKEN_PREFIX + newSecret(32);
    const id = await insertMonitorLink(this.db, { enterpriseId, name: body.name, tokenHash: sha256(token), createdBy, at: now, expiresAt, deviceIds, travelIds });
    const [link] = await listMonitorLinks(this.db, own, [id]);
    if (!link) throw notFound(M.notFound);
    return { ...link, token, url: this.config.publicUrl + monitorPagePath(token) };
  }

  async revoke(scope: TenantScope, id: string): Promise<void> {
    const link = await findMonitorLinkInScope(this.db, linkScope(scope), id);
    if (!link) throw notFound(M.notFound);
    await revokeMonitorLink(this.db, id, this.clock.now());
    // Open monitors close now, not at their next page load.
    this.events.emit('monitor-link.revoked', { linkId: id });
  }

  /**
   * The link of a token, when it may be used now; each use of a known link is counted and written to the access
   * log of its creator, refused ones too (an administrator sees a wall display still trying a revoked link).
   */
  async open(token: string, meta: ClientMeta, kind: MonitorUseKind): Promise<MonitorLinkRow> {
    const link = token.length <= 200 ? await findMonitorLinkByTokenHash(this.db, sha256(token)) : undefined;
    if (!link) throw new AppError('UNAUTHENTICATED', M.invalid);
    const now = this.clock.now();
    const refusal = this.refusalOf(link, now);
    this.recordUse(link, meta, kind, refusal ? 410 : 200);
    if (refusal) throw refusal;
    await recordMonitorLinkUse(this.db, link.id, now);
    return link;
  }

  /** The link again by id (a live monitor asking for a snapshot), refused once revoked or expired. */
  async current(linkId: string): Promise<MonitorLinkRow> {
    const link = await findMonitorLinkById(this.db, linkId);
    if (!link) throw new AppError('UNAUTHENTICATED', M.invalid);
    const refusal = this.refusalOf(link, this.clock.now());
    if (refusal) throw refusal;
    return link;
  }

  /** What the monitor shows: the chosen travels' cards (their limits) and the chosen devices' (their own). */
  async view(link: MonitorLinkRow): Promise<MonitorView> {
    const [travels, devices] = await Promise.all([monitoredTravels(this.db, link), monitoredDevices(this.db, link)]);
    const travelRows = await travelDeviceRows(this.db, travels.map((t) => t.id));
    const cards: Omit<MonitorDevice, 'last_position' | 'alarms'>[] = [];
    const seen = new Set<string>();
    const travelById = new Map(travels.map((t) => [t.id, { _id: t.id, code: t.code, route: routeText(t.origin_address, t.destiny_address), finished: t.status === TravelStatus.Finished }]));
    for (const travel of travels) {
      for (const row of travelRows) {
        if (row.travel_id !== travel.id || seen.has(row.device_id)) continue;
        seen.add(row.device_id);
        cards.push({ ...toTravelDevice(row), travel: travelById.get(travel.id) ?? null });
      }
    }
    for (const d of devices) {
      if (seen.has(d.id)) continue;
      seen.add(d.id);
      cards.push({
        _id: d.id,
        name: d.name,
        mac: d.mac,
        battery: { value: d.last_battery },
        temperature: { value: d.last_temperature },
        humidity: { value: d.last_humidity },
        last_update_date: d.last_sync_at ? d.last_sync_at.toISOString() : null,
        expectedIntervalSeconds: expectedIntervalOf(d.report_interval_seconds, d.learned_interval_seconds),
        config: { temperature: { min: d.temperature_min, max: d.temperature_max }, humidity: { min: d.humidity_min, max: d.humidity_max } },
        travel: null,
      });
    }
    const ids = cards.map((c) => c._id);
    const [positions, alarms, enterprise] = await Promise.all([
      devicePositions(this.db, ids),
      openAlarmsOf(this.db, ids),
      this.db.selectFrom('enterprises').select(['id', 'name']).where('id', '=', link.enterprise_id).executeTakeFirstOrThrow(),
    ]);
    return {
      name: link.name,
      enterprise: { _id: enterprise.id, name: enterprise.name },
      expires_at: link.expires_at.toISOString(),
      devices: cards.map((c) => ({ ...c, last_position: positions.get(c._id) ?? null, alarms: alarms.get(c._id) ?? [] })),
      generated_at: this.clock.now().toISOString(),
    };
  }

  /** The devices and travels a live monitor follows (the rooms its socket joins). */
  async targets(link: MonitorLinkRow): Promise<MonitorTargets> {
    const [travels, devices] = await Promise.all([monitoredTravels(this.db, link), monitoredDevices(this.db, link)]);
    const travelRows = await travelDeviceRows(this.db, travels.map((t) => t.id));
    return { deviceIds: [...new Set([...devices.map((d) => d.id), ...travelRows.map((r) => r.device_id)])], travelIds: travels.map((t) => t.id) };
  }

  private refusalOf(link: MonitorLinkRow, now: Date): AppError | null {
    if (link.revoked_at) return new AppError('GONE', M.revoked);
    if (link.expires_at.getTime() <= now.getTime()) return new AppError('GONE', M.expired);
    return null;
  }

  private recordUse(link: MonitorLinkRow, meta: ClientMeta, kind: MonitorUseKind, statusCode: number): void {
    const what = kind === 'page' ? 'aberto' : 'conectado para atualizações ao vivo';
    const outcome = statusCode === 200 ? '' : link.revoked_at ? ' (recusado: revogado)' : ' (recusado: expirado)';
    // The path names the route, never the token: the log must not hand out the credential.
    this.accessLog.record({
      created_at: this.clock.now(),
      user_id: link.created_by,
      enterprise_id: link.enterprise_id,
      client: meta.client,
      client_version: meta.clientVersion,
      client_os: meta.clientOs,
      ip: meta.ip,
      api_version: API_VERSION,
      method: kind === 'page' ? 'GET' : 'SOCKET',
      path: kind === 'page' ? '/api/monitor/:token' : '/monitor',
      status_code: statusCode,
      message: `Link de monitoramento "${link.name}" ${what}${outcome}`,
    });
  }
}
