import {
  formatRange,
  Profile,
  TRAVEL_STATUS_NAMES,
  TRAVEL_TRANSITIONS,
  TravelStatus,
  type CreateTravelBody,
  type EditTravelDeviceBody,
  type Travel,
  type TravelDevice,
  type TravelDeviceInput,
  type TravelLocation,
  type TravelReading,
  type TravelStatusId,
  type TrackingLinkBody,
  type UpdateTravelBody,
  type z,
} from '@sentinela/contract';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { TravelDevicesTable } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, badRequest, conflict, forbidden, gone, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { EventBus } from '../../realtime/event-bus';
import type { ClientMeta } from '../auth/session-service';
import { recordDeviceEvent } from '../device-events/repository';
import { recordEvents } from '../webhooks/outbox';
import { newTravelCode, normalizeTravelCode } from './code';
import { TRAVEL_MESSAGES as M } from './messages';
import {
  codeEverUsed,
  deleteTravelDevices,
  devicesLinkedTo,
  devicesRunningElsewhere,
  findUserOfEnterprise,
  findRevokedCode,
  findTravelByCode,
  findTravelDeviceByMac,
  findTravelInScope,
  insertTravel,
  insertRevokedCode,
  insertTravelDevices,
  isTravelInScope,
  listTravelsInScope,
  lockDevices,
  lockTravel,
  lockTravelDevice,
  recordCodeLookup,
  travelDeviceIds,
  travelDeviceReadings,
  travelDeviceRows,
  travelPath,
  updateTravel,
  updateTravelDevice,
  type LockedDevice,
  type TravelRow,
} from './repository';
import { groupTravelDevices, toTravel, toTravelLocation, toTravelReading, type TravelView } from './view';

/** `paginate=false` answers at most this many travels, the newest (`total` still counts them all). */
export const TRAVEL_LIST_ALL_MAX = 1000;
/** A card's history answers at most this many readings: the newest, oldest first. */
export const TRAVEL_HISTORY_MAX = 10_000;
/** The travelled path is thinned to about this many points. */
export const TRAVEL_PATH_MAX_POINTS = 2000;
const CODE_ATTEMPTS = 3;

/** Who acts, for the rules that depend on it (the enterprise of a new travel, device events). */
export interface TravelActor {
  userId: string;
  profileId: number;
  enterpriseId: string | null;
  scope: TenantScope;
  meta: ClientMeta;
}

type CreateInput = z.infer<typeof CreateTravelBody>;
type UpdateInput = z.infer<typeof UpdateTravelBody>;
type DeviceInput = z.infer<typeof TravelDeviceInput>;
type EditDeviceInput = z.infer<typeof EditTravelDeviceBody>;
type TrackingLinkInput = z.infer<typeof TrackingLinkBody>;

export interface TravelServiceOptions {
  /** Days after a travel ends that its code keeps working, unless its managers chose an expiry (ADR 36). */
  linkDaysAfterEnd: number;
}

const DAY_MS = 86_400_000;

/**
 * Travels (T1–T9): reading them within the caller's scope or by tracking code, and their lifecycle
 * (create, edit, status). A travel outside the scope is "not found", like one that does not exist.
 * Changes emit `travel.changed` after commit, so live subscribers get the new device cards.
 */
export class TravelService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly options: TravelServiceOptions = { linkDaysAfterEnd: 7 },
  ) {}

  async list(scope: TenantScope, query: { paginate: 'true' | 'false'; page: number; limit: number }) {
    const all = query.paginate === 'false';
    const page = all ? 1 : query.page;
    const limit = all ? TRAVEL_LIST_ALL_MAX : query.limit;
    const { rows, total } = await listTravelsInScope(this.db, scope, { offset: (page - 1) * limit, limit });
    return { data: await this.withDevices(rows, 'full'), total, page, limit };
  }

  async get(scope: TenantScope, id: string): Promise<Travel> {
    const row = await this.visible(scope, id);
    return (await this.withDevices([row], 'full'))[0]!;
  }

  /**
   * The Localizador (T5, ADR 36). A live code (neither revoked nor expired) gives a signed-in user who may see the
   * travel the full view, and anyone else the view of the code's scope; that lookup is counted for the managers.
   * A revoked or expired code answers 410 to everyone, with a message that says which.
   */
  async localizator(code: string, scope: TenantScope | null): Promise<Travel> {
    const { row, view } = await this.byCode(code, scope);
    if (view !== 'full') await recordCodeLookup(this.db, row.id, this.clock.now());
    return (await this.withDevices([row], view))[0]!;
  }

  /**
   * The travel a tracking code lets its holder watch live (same rules as the Localizador), and whether the code
   * shows the position only (then the socket must not receive the device cards), and the milliseconds left before
   * the link expires (null: no expiry yet), when the socket must leave.
   */
  async watchableByCode(code: string, scope: TenantScope | null): Promise<{ travelId: string; positionOnly: boolean; msLeft: number | null }> {
    const { row, view } = await this.byCode(code, scope);
    const expires = this.expiresAt(row);
    return { travelId: row.id, positionOnly: view === 'position', msLeft: expires ? expires.getTime() - this.clock.now().getTime() : null };
  }

  /** Whether a signed-in user may watch a travel live: exactly when GET /api/travels/{id} answers them. */
  async watchable(scope: TenantScope, id: string): Promise<boolean> {
    return isTravelInScope(this.db, scope, id);
  }

  /** Device cards of several travels, for the live feed: one query whatever their number. */
  async deviceCards(travelIds: readonly string[]): Promise<Map<string, TravelDevice[]>> {
    return groupTravelDevices(await travelDeviceRows(this.db, travelIds));
  }

  /** A card's readings during the travel: the newest TRAVEL_HISTORY_MAX, oldest first. */
  async deviceHistory(scope: TenantScope, id: string, mac: string): Promise<TravelReading[]> {
    return this.readingsOf(await this.visible(scope, id), mac);
  }

  /**
   * The same readings for a holder of the travel's tracking code (T5, ADR 72): a live code whose scope shows the
   * readings (or a user who may see the travel anyway). A position-only code is 403; a dead code 410, as the
   * Localizador answers. Not counted as a lookup: the page already looked the code up.
   */
  async deviceHistoryByCode(code: string, scope: TenantScope | null, mac: string): Promise<TravelReading[]> {
    return this.readingsOf((await this.readableByCode(code, scope)).row, mac);
  }

  /** A travel whose readings a tracking code shows to its holder, and the view it gives (ADR 72). */
  async readableByCode(code: string, scope: TenantScope | null): Promise<{ row: TravelRow; view: TravelView }> {
    const found = await this.byCode(code, scope);
    if (found.view === 'position') throw forbidden(M.positionOnly);
    return found;
  }

  private async readingsOf(travel: TravelRow, mac: string): Promise<TravelReading[]> {
    const device = await findTravelDeviceByMac(this.db, travel.id, mac);
    if (!device) throw notFound(M.deviceNotInTravel);
    if (!travel.started_at) return [];
    const rows = await travelDeviceReadings(this.db, { id: travel.id, started_at: travel.started_at, finished_at: travel.finished_at }, device.num, TRAVEL_HISTORY_MAX);
    return rows.map((r) => toTravelReading(r, travel.id, device.mac));
  }

  /** The travelled path (T7), oldest first. */
  async locations(scope: TenantScope, id: string): Promise<TravelLocation[]> {
    const travel = await this.visible(scope, id);
    if (!travel.started_at) return [];
    const rows = await travelPath(this.db, { id: travel.id, started_at: travel.started_at, finished_at: travel.finished_at }, TRAVEL_PATH_MAX_POINTS);
    return rows.map(toTravelLocation);
  }

  /** T8: a new travel, not started, with a fresh tracking code. */
  async create(actor: TravelActor, input: CreateInput): Promise<Travel> {
    const enterpriseId = await this.enterpriseForNewTravel(actor, input);
    await this.checkResponsible(input.responsible_user_id, enterpriseId);
    const deviceIds = uniqueDeviceIds(input.devices);
    const now = this.clock.now();

    for (let attempt = 1; ; attempt++) {
      try {
        const id = await this.db.transaction().execute(async (trx) => {
          const devices = await this.claimDevices(trx, actor, enterpriseId, deviceIds, null);
          const travelId = await insertTravel(trx, {
            enterprise_id: enterpriseId,
            code: await freshCode(trx),
            status: TravelStatus.NotStarted,
            responsible_user_id: input.responsible_user_id,
            created_by: actor.userId,
            origin_address: input.origin.address,
            origin_lat: input.origin.location[0],
            origin_lng: input.origin.location[1],
            destiny_address: input.destiny.address,
            destiny_lat: input.destiny.location[0],
            destiny_lng: input.destiny.location[1],
            created_at: now,
            updated_at: now,
          });
          await insertTravelDevices(trx, input.devices.map((d) => travelDeviceRow(travelId, d, devices.get(d.device_id)!)));
          const route = routeText(input.origin.address, input.destiny.address);
          for (const deviceId of deviceIds) await this.deviceEvent(trx, actor, deviceId, `Incluído na viagem ${route}`, now);
          return travelId;
        });
        return this.get(actor.scope, id);
      } catch (error) {
        // A code drawn twice out of 31^10: draw again.
        if (attempt < CODE_ATTEMPTS && isUniqueViolation(error, 'travels_code_key')) continue;
        throw error;
      }
    }
  }

  /** Edits a travel that has not finished: places, responsible, devices (the list replaces the travel's). */
  async update(actor: TravelActor, id: string, input: UpdateInput): Promise<Travel> {
    const current = await this.visible(actor.scope, id);
    if (input.responsible_user_id !== undefined) await this.checkResponsible(input.responsible_user_id, current.enterprise_id);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const travel = await lockTravel(trx, id);
      if (!travel) throw notFound(M.notFound);
      if (travel.status === TravelStatus.Finished) throw conflict(M.finished);
      await updateTravel(trx, id, {
        ...(input.origin && { origin_address: input.origin.address, origin_lat: input.origin.location[0], origin_lng: input.origin.location[1] }),
        ...(input.destiny && { destiny_address: input.destiny.address, destiny_lat: input.destiny.location[0], destiny_lng: input.destiny.location[1] }),
        ...(input.responsible_user_id !== undefined && { responsible_user_id: input.responsible_user_id }),
        updated_at: now,
      });
      if (!input.devices) return;

      const wanted = uniqueDeviceIds(input.devices);
      const before = new Set(await travelDeviceIds(trx, id));
      const devices = await this.claimDevices(trx, actor, travel.enterprise_id, wanted, { id, deviceIds: before, status: travel.status });
      const removed = [...before].filter((d) => !wanted.includes(d));
      // A device kept without a new name or limits keeps its travel settings (the list is replaced, not its cards).
      const untouched = new Set(input.devices.filter((d) => before.has(d.device_id) && d.name === undefined && d.config === undefined).map((d) => d.device_id));
      await deleteTravelDevices(trx, id, [...before].filter((d) => !untouched.has(d)));
      await insertTravelDevices(trx, input.devices.filter((d) => !untouched.has(d.device_id)).map((d) => travelDeviceRow(id, d, devices.get(d.device_id)!)));
      const route = routeText(input.origin?.address ?? travel.origin_address, input.destiny?.address ?? travel.destiny_address);
      for (const deviceId of wanted) if (!before.has(deviceId)) await this.deviceEvent(trx, actor, deviceId, `Incluído na viagem ${route}`, now);
      for (const deviceId of removed) await this.deviceEvent(trx, actor, deviceId, `Retirado da viagem ${route}`, now);
    });
    this.events.emit('travel.changed', { travelId: id });
    return this.get(actor.scope, id);
  }

  /** Status transitions (T8): 0 → 1 ⇄ 3 → 2 and 1 → 2, as TRAVEL_TRANSITIONS says; anything else is a 409. */
  async changeStatus(actor: TravelActor, id: string, to: TravelStatusId): Promise<Travel> {
    await this.visible(actor.scope, id);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const travel = await lockTravel(trx, id);
      if (!travel) throw notFound(M.notFound);
      const from = travel.status as TravelStatusId;
      if (!TRAVEL_TRANSITIONS[from].includes(to)) throw conflict(M.transition(from, to));
      if (to === TravelStatus.InProgress) {
        // Readings go to the one travel in progress that carries their device: never two at once (a plan or a
        // paused travel may share the device; it is refused here, when it would start running beside the other).
        const deviceIds = await travelDeviceIds(trx, id);
        await this.refuseRunningElsewhere(trx, travel, deviceIds, M.runningElsewhere);
      }
      const startedAt = to === TravelStatus.InProgress && !travel.started_at ? now : travel.started_at;
      await updateTravel(trx, id, {
        status: to,
        ...(to === TravelStatus.InProgress && !travel.started_at && { started_at: now }),
        ...(to === TravelStatus.Finished && { finished_at: now }),
        updated_at: now,
      });
      // Webhooks (ADR 66): announced with the change, in its transaction.
      if (travel.enterprise_id) {
        const data = {
          travel: {
            _id: travel.id,
            code: travel.code,
            origin: travel.origin_address,
            destination: travel.destiny_address,
            status: to,
            status_name: TRAVEL_STATUS_NAMES[to],
            previous_status: from,
            previous_status_name: TRAVEL_STATUS_NAMES[from],
            started_at: startedAt ? startedAt.toISOString() : null,
            finished_at: to === TravelStatus.Finished ? now.toISOString() : null,
          },
        };
        await recordEvents(trx, [{ enterpriseId: travel.enterprise_id, type: 'travel.status_changed', data }], now);
      }
    });
    this.events.emit('travel.changed', { travelId: id });
    return this.get(actor.scope, id);
  }

  /** T9: a device's name and limits within one travel (the device's own stay as they are). */
  async editDevice(actor: TravelActor, input: EditDeviceInput): Promise<Travel> {
    await this.visible(actor.scope, input.travel_id);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const travel = await lockTravel(trx, input.travel_id);
      if (!travel) throw notFound(M.notFound);
      if (travel.status === TravelStatus.Finished) throw conflict(M.finished);
      const current = await lockTravelDevice(trx, input.travel_id, input.device_id);
      if (!current) throw notFound(M.deviceNotInTravel);
      // Absent keeps the travel's value; null clears it, and the device's own limit applies again.
      const pick = (value: number | null | undefined, kept: number | null) => (value === undefined ? kept : value);
      const settings = {
        name: input.name,
        temperature_min: pick(input.config.temperature?.min, current.temperature_min),
        temperature_max: pick(input.config.temperature?.max, current.temperature_max),
        humidity_min: pick(input.config.humidity?.min, current.humidity_min),
        humidity_max: pick(input.config.humidity?.max, current.humidity_max),
      };
      const tMin = settings.temperature_min ?? current.device_temperature_min;
      const tMax = settings.temperature_max ?? current.device_temperature_max;
      const hMin = settings.humidity_min ?? current.device_humidity_min;
      const hMax = settings.humidity_max ?? current.device_humidity_max;
      checkRanges(tMin, tMax, hMin, hMax);
      await updateTravelDevice(trx, input.travel_id, input.device_id, settings);
      await this.deviceEvent(
        trx,
        actor,
        input.device_id,
        `Configuração na viagem ${routeText(travel.origin_address, travel.destiny_address)}: nome "${input.name}"; temperatura ${formatRange(tMin, tMax, '°C', { none: 'sem limites' })}; umidade ${formatRange(hMin, hMax, '%', { none: 'sem limites' })}`,
        now,
      );
    });
    this.events.emit('travel.changed', { travelId: input.travel_id });
    return this.get(actor.scope, input.travel_id);
  }

  /** ADR 36: what the code shows, and until when it works (null: the default, some days after the travel ends). */
  async setTrackingLink(actor: TravelActor, id: string, input: TrackingLinkInput): Promise<Travel> {
    await this.visible(actor.scope, id);
    const now = this.clock.now();
    const expires = input.expires_at === null ? null : new Date(input.expires_at);
    if (expires && expires.getTime() <= now.getTime()) throw badRequest(M.expiryInPast);
    await updateTravel(this.db, id, { code_scope: input.scope, code_expires_at: expires, updated_at: now });
    // Watchers of the code are checked again: a socket of a code now showing the position only stops getting cards.
    this.events.emit('travel.changed', { travelId: id });
    return this.get(actor.scope, id);
  }

  /** ADR 36: the code stops working at once (HTTP and live rooms), until the managers generate a new one. */
  async revokeTrackingLink(actor: TravelActor, id: string): Promise<Travel> {
    const travel = await this.visible(actor.scope, id);
    if (!travel.code_revoked_at) {
      const now = this.clock.now();
      await updateTravel(this.db, id, { code_revoked_at: now, updated_at: now });
      this.events.emit('travel.changed', { travelId: id });
    }
    return this.get(actor.scope, id);
  }

  /**
   * ADR 36: a new code replaces the old one, which answers "revoked" from now on. The count of lookups starts
   * again: it tells the managers how the link they sent now is used.
   */
  async regenerateTrackingLink(actor: TravelActor, id: string): Promise<Travel> {
    await this.visible(actor.scope, id);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.transaction().execute(async (trx) => {
          const travel = await lockTravel(trx, id);
          if (!travel) throw notFound(M.notFound);
          const now = this.clock.now();
          await insertRevokedCode(trx, { code: travel.code, travel_id: id, revoked_at: now });
          await updateTravel(trx, id, { code: await freshCode(trx), code_revoked_at: null, code_lookups: 0, code_last_lookup_at: null, updated_at: now });
        });
        break;
      } catch (error) {
        if (attempt < CODE_ATTEMPTS && isUniqueViolation(error, 'travels_code_key')) continue;
        throw error;
      }
    }
    this.events.emit('travel.changed', { travelId: id });
    return this.get(actor.scope, id);
  }

  // --- helpers ---

  private async visible(scope: TenantScope, id: string): Promise<TravelRow> {
    const row = await findTravelInScope(this.db, scope, id);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  /**
   * A code's travel and the view it gives (ADR 36). The code's state applies to everyone: a revoked or expired
   * code is dead even for a user who may see the travel (they follow it on /directions), so a manager who checks
   * the old link sees what its holders see.
   */
  private async byCode(input: string, scope: TenantScope | null): Promise<{ row: TravelRow; view: TravelView }> {
    const code = normalizeTravelCode(input);
    const row = await findTravelByCode(this.db, code);
    if (!row) {
      if (await findRevokedCode(this.db, code)) throw gone(M.codeRevoked);
      throw notFound(M.codeNotFound);
    }
    if (row.code_revoked_at) throw gone(M.codeRevoked);
    const expires = this.expiresAt(row);
    if (expires && expires.getTime() <= this.clock.now().getTime()) throw gone(M.codeExpired);
    const full = scope !== null && (await isTravelInScope(this.db, scope, row.id));
    return { row, view: full ? 'full' : row.code_scope };
  }

  /** When a travel's code stops working: the managers' date, else some days after the travel ended, else not yet. */
  private expiresAt(row: Pick<TravelRow, 'code_expires_at' | 'finished_at'>): Date | null {
    if (row.code_expires_at) return row.code_expires_at;
    return row.finished_at ? new Date(row.finished_at.getTime() + this.options.linkDaysAfterEnd * DAY_MS) : null;
  }

  private async withDevices(rows: TravelRow[], view: TravelView): Promise<Travel[]> {
    // The position-only view carries no device cards: they are not even read.
    const cards = view === 'position' ? new Map<string, TravelDevice[]>() : await this.deviceCards(rows.map((r) => r.id));
    return rows.map((r) => toTravel(r, cards.get(r.id) ?? [], view, this.expiresAt(r)));
  }

  /**
   * The super admin chooses (or it is the responsible's); everyone else creates in their own enterprise. An
   * enterprise or responsible the caller cannot reach is "not found", like one that does not exist.
   */
  private async enterpriseForNewTravel(actor: TravelActor, input: CreateInput): Promise<string> {
    if (actor.profileId !== Profile.SuperAdmin) {
      if (!actor.enterpriseId) throw badRequest(M.enterpriseRequired);
      if (input.enterprise_id && input.enterprise_id !== actor.enterpriseId) throw notFound(M.enterpriseNotFound);
      return actor.enterpriseId;
    }
    if (input.enterprise_id) {
      const enterprise = await this.db.selectFrom('enterprises').select('id').where('id', '=', input.enterprise_id).where('disabled', '=', false).executeTakeFirst();
      if (!enterprise) throw notFound(M.enterpriseNotFound);
      return enterprise.id;
    }
    const responsible = await this.db.selectFrom('users').select('enterprise_id').where('id', '=', input.responsible_user_id).executeTakeFirst();
    if (!responsible) throw notFound(M.responsibleNotFound);
    if (!responsible.enterprise_id) throw badRequest(M.enterpriseRequired);
    return responsible.enterprise_id;
  }

  /** The responsible is a user of the travel's enterprise (404 otherwise, whoever it is), and an active one. */
  private async checkResponsible(userId: string, enterpriseId: string | null): Promise<void> {
    const user = enterpriseId ? await findUserOfEnterprise(this.db, userId, enterpriseId) : undefined;
    if (!user) throw notFound(M.responsibleNotFound);
    if (user.disabled) throw badRequest(M.responsibleInvalid);
  }

  /**
   * Locks the devices a travel will carry and checks them: of the travel's enterprise, visible to the caller
   * (an ordinary user brings the devices linked to them; those already on the travel may stay); a travel in progress
   * takes no device that another travel in progress carries.
   */
  private async claimDevices(
    trx: Db,
    actor: TravelActor,
    enterpriseId: string | null,
    deviceIds: readonly string[],
    travel: { id: string; deviceIds: Set<string>; status: number } | null,
  ): Promise<Map<string, LockedDevice>> {
    const locked = await lockDevices(trx, deviceIds);
    const byId = new Map(locked.map((d) => [d.id, d]));
    const linked = actor.scope.kind === 'user' ? await devicesLinkedTo(trx, actor.userId, deviceIds) : null;
    for (const id of deviceIds) {
      const device = byId.get(id);
      const reachable = !linked || linked.has(id) || travel?.deviceIds.has(id);
      if (!device || device.enterprise_id !== enterpriseId || !reachable) throw notFound(M.deviceNotFound);
    }
    // A travel not started (a plan) or paused may carry a device that is travelling elsewhere; one in progress may not.
    if (travel?.status === TravelStatus.InProgress) {
      await this.refuseRunningElsewhere(trx, { id: travel.id, enterprise_id: enterpriseId }, deviceIds.filter((d) => !travel.deviceIds.has(d)), M.runningElsewhereAdd, locked);
    }
    return byId;
  }

  /**
   * Refuses (409) when one of the devices is on another travel in progress; the devices must already be locked, or
   * are locked here in device-number order (as ingestion locks them), so two starts at once are decided one after
   * the other. The other travel's route is named only when it is of the same enterprise.
   */
  private async refuseRunningElsewhere(
    trx: Db,
    travel: { id: string; enterprise_id: string | null },
    deviceIds: readonly string[],
    message: (name: string, route: string | null) => string,
    alreadyLocked?: readonly LockedDevice[],
  ): Promise<void> {
    if (deviceIds.length === 0) return;
    const locked = alreadyLocked ?? (await lockDevices(trx, deviceIds));
    const running = await devicesRunningElsewhere(trx, deviceIds, travel.id);
    const first = locked.find((d) => deviceIds.includes(d.id) && running.has(d.id));
    if (!first) return;
    const other = running.get(first.id)!;
    throw conflict(message(first.name, other.enterpriseId === travel.enterprise_id ? routeText(other.origin, other.destiny) : null));
  }

  private async deviceEvent(trx: Db, actor: TravelActor, deviceId: string, message: string, at: Date): Promise<void> {
    await recordDeviceEvent(trx, { deviceId, type: 'travel', message, userId: actor.userId, meta: actor.meta, at });
  }
}

/** A code never given before, to this or another travel (a revoked link must not come back to life elsewhere). */
async function freshCode(db: Db): Promise<string> {
  for (;;) {
    const code = newTravelCode();
    if (!(await codeEverUsed(db, code))) return code;
  }
}

function uniqueDeviceIds(devices: readonly DeviceInput[]): string[] {
  const ids = devices.map((d) => d.device_id);
  if (new Set(ids).size !== ids.length) throw badRequest(M.deviceRepeated);
  return ids;
}

/** A travel's own settings of a device: only what was given (a blank name keeps the device's). */
function travelDeviceRow(travelId: string, input: DeviceInput, device: LockedDevice): Insertable<TravelDevicesTable> {
  const t = input.config?.temperature;
  const h = input.config?.humidity;
  const row = {
    travel_id: travelId,
    device_id: input.device_id,
    name: input.name ? input.name : null,
    temperature_min: t?.min ?? null,
    temperature_max: t?.max ?? null,
    humidity_min: h?.min ?? null,
    humidity_max: h?.max ?? null,
  };
  checkRanges(
    row.temperature_min ?? device.temperature_min,
    row.temperature_max ?? device.temperature_max,
    row.humidity_min ?? device.humidity_min,
    row.humidity_max ?? device.humidity_max,
  );
  return row;
}

function checkRanges(tMin: number | null, tMax: number | null, hMin: number | null, hMax: number | null): void {
  if (tMin !== null && tMax !== null && tMin >= tMax) throw new AppError('VALIDATION', M.temperatureRange);
  if (hMin !== null && hMax !== null && hMin >= hMax) throw new AppError('VALIDATION', M.humidityRange);
}

const routeText = (origin: string, destiny: string) => `"${origin}" → "${destiny}"`;
