import { formatRange, type AlarmNotification, type AlarmType, type SignatureMeaning } from '@sentinela/contract';
import type { ComplianceService } from '../compliance/service';
import type { SignatureService } from '../signatures/service';
import { toSignature } from '../signatures/view';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { AlarmChangedEvent, EventBus } from '../../realtime/event-bus';
import { findDeviceByMacInScope, findDeviceInScope } from '../devices/repository';
import { recordAlarmEvents } from '../webhooks/outbox';
import type { AlarmChanges } from './evaluator';
import { alarmMessage, alarmTypeName } from './format';
import {
  acknowledgeAlarm,
  deleteExcursions,
  findAlarm,
  insertAlarms,
  listAlarmsOfDevice,
  lockSilentDevices,
  updateAlarms,
  upsertExcursions,
  type AlarmRow,
} from './repository';

const DEVICE_NOT_FOUND = 'Dispositivo não encontrado.';
const ALARM_NOT_FOUND = 'Alarme não encontrado.';
const ALREADY_ACKNOWLEDGED = 'Este alarme já foi reconhecido.';
const GXP_NEEDS_A_PERSON = 'Em modo GxP, reconhecer um alarme é uma assinatura eletrônica: faça-o com uma sessão, não com um token de API.';
/** The Alarmes tab shows a device's recent alarms; older ones stay in the database and in reports. */
const NOTIFICATIONS_LIMIT = 500;

export function toNotification(row: AlarmRow): AlarmNotification {
  return {
    _id: row.id,
    date: row.started_at.toISOString(),
    ended_at: row.ended_at ? row.ended_at.toISOString() : null,
    message: row.message,
    type: row.type as AlarmType,
    type_formatted: alarmTypeName(row.type),
    temperature_formatted: formatRange(row.temperature_min, row.temperature_max, '°C'),
    humidity_formatted: formatRange(row.humidity_min, row.humidity_max, '%'),
    temperature: { min: row.temperature_min, max: row.temperature_max },
    humidity: { min: row.humidity_min, max: row.humidity_max },
    active: row.active,
    active_formatted: row.active ? 'Sim' : 'Não',
    acknowledge: row.acknowledged_at
      ? {
          message: row.acknowledge_message ?? '',
          date: row.acknowledged_at.toISOString(),
          user: row.acknowledged_by && row.acknowledged_by_name ? { _id: row.acknowledged_by, name: row.acknowledged_by_name } : null,
          signature: row.signature_id
            ? toSignature({
                id: row.signature_id, printed_name: row.signature_printed_name!, username: row.signature_username!, meaning: row.signature_meaning!,
                signed_at: row.signature_signed_at!, record_hash: row.signature_record_hash!, hash: row.signature_hash!,
              })
            : null,
        }
      : null,
    acknowledge_formatted: row.acknowledged_at ? 'Sim' : 'Não',
    travel_id: row.travel_id,
  };
}

/** One device's alarm changes from a batch, with what the stored rows need. */
export interface DeviceAlarmChanges {
  deviceId: string;
  enterpriseId: string | null;
  travelId: string | null;
  changes: AlarmChanges;
}

/**
 * Stores the alarm changes of a batch inside its transaction: updates and closes first (so that a type
 * closed and reopened in the same batch never has two active rows), then opens, then pending excursions.
 * Returns the events to emit once the transaction has committed.
 */
export async function storeAlarmChanges(trx: Db, batch: readonly DeviceAlarmChanges[], at: Date): Promise<{ opened: AlarmChangedEvent[]; closed: AlarmChangedEvent[] }> {
  const updates = batch.flatMap((d) => d.changes.updated.map((u) => ({ ...u, device: d })));
  await updateAlarms(trx, updates.map((u) => ({ id: u.id, observed: u.observed, endedAt: u.endedAt === null ? null : new Date(u.endedAt) })));
  const inserted = await insertAlarms(
    trx,
    batch.flatMap((d) =>
      d.changes.opened.map((o) => ({
        deviceId: d.deviceId,
        travelId: d.travelId,
        type: o.type,
        message: o.message,
        startedAt: new Date(o.startedAt),
        endedAt: o.endedAt === null ? null : new Date(o.endedAt),
        observed: o.observed,
      })),
    ),
    at,
  );
  await deleteExcursions(trx, batch.flatMap((d) => d.changes.pendingDeletes.map((type) => ({ deviceId: d.deviceId, type }))));
  await upsertExcursions(trx, batch.flatMap((d) => d.changes.pendingUpserts.map((p) => ({ ...p, deviceId: d.deviceId }))));

  const enterpriseOf = new Map(batch.map((d) => [d.deviceId, d.enterpriseId]));
  const opened = inserted.map((a) => ({ alarmId: a.id, deviceId: a.device_id, enterpriseId: enterpriseOf.get(a.device_id) ?? null, travelId: a.travel_id, type: a.type, active: a.active }));
  const closed = updates
    .filter((u) => u.endedAt !== null)
    .map((u) => ({ alarmId: u.id, deviceId: u.device.deviceId, enterpriseId: u.device.enterpriseId, travelId: u.device.travelId, type: u.type, active: false }));
  // An alarm opened and closed within the batch is announced as both.
  for (const a of opened) if (!a.active) closed.push(a);
  // Webhooks (ADR 66): in this transaction, one statement for the batch, and only when it opened or closed alarms.
  await recordAlarmEvents(
    trx,
    [...opened.map((a) => ({ alarmId: a.alarmId, type: 'alarm.opened' as const })), ...closed.map((a) => ({ alarmId: a.alarmId, type: 'alarm.ended' as const }))],
    at,
  );
  return { opened, closed };
}

export class AlarmService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly compliance: ComplianceService,
    private readonly signatures: SignatureService,
  ) {}

  /** GET /api/beacon-device/{mac}/notifications: the device's alarms, newest first. */
  async notificationsOfDevice(scope: TenantScope, mac: string): Promise<AlarmNotification[]> {
    const found = await findDeviceByMacInScope(this.db, scope, mac);
    if (!found) throw notFound(DEVICE_NOT_FOUND);
    const rows = await listAlarmsOfDevice(this.db, found.device._id, NOTIFICATIONS_LIMIT);
    return rows.map(toNotification);
  }

  /**
   * Records who acknowledged an alarm, when, and with which message; an alarm is acknowledged once. In GxP mode the
   * acknowledgement is an electronic signature (ADR 0062): the password is checked again and the signature, bound to
   * the alarm by its hash, is stored with it in the same transaction.
   */
  async acknowledge(
    scope: TenantScope,
    alarmId: string,
    by: { userId: string; message: string; password?: string; meaning?: SignatureMeaning; viaApiToken?: boolean },
  ): Promise<AlarmNotification> {
    const alarm = await findAlarm(this.db, alarmId);
    // An alarm of a device outside the caller's scope does not exist for the caller.
    const device = alarm && (await findDeviceInScope(this.db, scope, alarm.device_id));
    if (!alarm || !device) throw notFound(ALARM_NOT_FOUND);
    if (alarm.acknowledged_at) throw conflict(ALREADY_ACKNOWLEDGED);
    const enterpriseId = device.enterprise?._id ?? null;
    const at = this.clock.now();
    if (await this.compliance.isGxp(enterpriseId)) {
      // A signature is a person's act (password again): an API token cannot sign, nor try its creator's password.
      if (by.viaApiToken) throw forbidden(GXP_NEEDS_A_PERSON);
      const signer = await this.signatures.verifySigner(by.userId, by.password, by.meaning);
      await this.db.transaction().execute(async (trx) => {
        const signature = await this.signatures.sign(trx, signer, {
          type: 'alarm',
          id: alarmId,
          enterpriseId,
          at,
          content: {
            device_id: alarm.device_id, mac: device.mac, type: alarm.type, message: alarm.message, started_at: alarm.started_at,
            ended_at: alarm.ended_at, acknowledged_at: at, acknowledge_message: by.message,
          },
        });
        if (!(await acknowledgeAlarm(trx, alarmId, { userId: by.userId, message: by.message, at, signatureId: signature._id }))) throw conflict(ALREADY_ACKNOWLEDGED);
        // Webhooks (ADR 66): announced in the acknowledgement's transaction.
        await recordAlarmEvents(trx, [{ alarmId, type: 'alarm.acknowledged' }], at);
      });
    } else {
      await this.db.transaction().execute(async (trx) => {
        if (!(await acknowledgeAlarm(trx, alarmId, { userId: by.userId, message: by.message, at }))) throw conflict(ALREADY_ACKNOWLEDGED);
        await recordAlarmEvents(trx, [{ alarmId, type: 'alarm.acknowledged' }], at);
      });
    }
    const updated = await findAlarm(this.db, alarmId);
    if (!updated) throw notFound(ALARM_NOT_FOUND);
    this.events.emit('alarm.acknowledged', {
      alarmId,
      deviceId: updated.device_id,
      enterpriseId,
      travelId: updated.travel_id,
      type: updated.type as AlarmType,
      active: updated.active,
    });
    return toNotification(updated);
  }

  /**
   * Opens a "no data" alarm for every device silent for longer than its no_data_minutes. It starts when the
   * silence crossed the limit; the device's next reading closes it. Returns how many alarms were opened.
   */
  async checkNoData(): Promise<number> {
    const now = this.clock.now();
    const enterpriseOf = new Map<string, string | null>();
    const opened = await this.db.transaction().execute(async (trx) => {
      const silent = await lockSilentDevices(trx, now);
      for (const d of silent) enterpriseOf.set(d.id, d.enterprise_id);
      const inserted = await insertAlarms(
        trx,
        silent.map((d) => ({
          deviceId: d.id,
          travelId: d.travel_id,
          type: 'no_data' as const,
          message: alarmMessage('no_data', d.no_data_minutes),
          startedAt: new Date(d.last_sync_at.getTime() + d.no_data_minutes * 60_000),
          endedAt: null,
          observed: { temperatureMin: null, temperatureMax: null, humidityMin: null, humidityMax: null },
        })),
        now,
      );
      // A silence is an alarm (alarm.opened) and, for receivers that only follow silences, device.silent (ADR 66).
      await recordAlarmEvents(trx, inserted.flatMap((a) => [{ alarmId: a.id, type: 'alarm.opened' as const }, { alarmId: a.id, type: 'device.silent' as const }]), now);
      return inserted;
    });
    for (const a of opened) {
      this.events.emit('alarm.opened', { alarmId: a.id, deviceId: a.device_id, enterpriseId: enterpriseOf.get(a.device_id) ?? null, travelId: a.travel_id, type: a.type, active: true });
    }
    return opened.length;
  }
}
