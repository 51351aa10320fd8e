import { z } from './zod-locale';
import { ElectronicSignature, signatureMeaning, signaturePassword } from './signatures';
import { IsoDate } from './common';
import { cleanText } from './values';

/** Alarm types (D6): one alarm per excursion and type. */
export const ALARM_TYPES = ['temperature_high', 'temperature_low', 'humidity_high', 'humidity_low', 'no_data'] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];

export const ALARM_TYPE_NAMES: Record<AlarmType, string> = {
  temperature_high: 'Temperatura alta',
  temperature_low: 'Temperatura baixa',
  humidity_high: 'Umidade alta',
  humidity_low: 'Umidade baixa',
  no_data: 'Sem dados',
};

/** An alarm as GET /api/beacon-device/{mac}/notifications answers it (spec 001 §3 "Alarm notification"). */
export const AlarmNotification = z.object({
  _id: z.string(),
  /** When the excursion began. */
  date: IsoDate,
  ended_at: IsoDate.nullable(),
  message: z.string(),
  type: z.enum(ALARM_TYPES),
  type_formatted: z.string(),
  /** Observed range during the excursion, e.g. "8,50 °C - 9,20 °C", or "--". */
  temperature_formatted: z.string(),
  humidity_formatted: z.string(),
  temperature: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  humidity: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  active: z.boolean(),
  active_formatted: z.enum(['Sim', 'Não']),
  acknowledge: z
    .object({
      message: z.string(),
      date: IsoDate,
      user: z.object({ _id: z.string(), name: z.string() }).nullable(),
      /** The electronic signature of the acknowledgement (GxP mode, ADR 0062), absent or null otherwise. */
      signature: ElectronicSignature.nullable().optional(),
    })
    .nullable(),
  acknowledge_formatted: z.enum(['Sim', 'Não']),
  travel_id: z.string().nullable(),
});
export type AlarmNotification = z.infer<typeof AlarmNotification>;

export const AlarmNotificationList = z.array(AlarmNotification);

export const AcknowledgeAlarmBody = z.object({
  message: cleanText('A mensagem', { min: 1, max: 500, multiline: true, requiredMessage: 'Informe a mensagem de reconhecimento.' }),
  /** GxP mode (ADR 0062): the acknowledgement is an electronic signature, with the password and its meaning. */
  password: signaturePassword().optional(),
  meaning: signatureMeaning().optional(),
});

/** The open alarms list of the header (GET /api/alarms/open) shows at most this many, the newest first. */
export const OPEN_ALARMS_LIMIT = 100;

/** An open alarm as the header's list shows it, across the devices the caller may see (issue 11, item 5). */
export const OpenAlarm = z.object({
  _id: z.string(),
  /** When the excursion began ("since when"). */
  date: IsoDate,
  message: z.string(),
  type: z.enum(ALARM_TYPES),
  type_formatted: z.string(),
  /** The device, by the name it has in its travel when it travels. */
  device: z.object({ _id: z.string(), mac: z.string(), name: z.string() }),
  travel: z.object({ _id: z.string(), code: z.string(), origin_address: z.string(), destiny_address: z.string() }).nullable(),
  acknowledge: AlarmNotification.shape.acknowledge,
});
export type OpenAlarm = z.infer<typeof OpenAlarm>;

/** How many alarms are open in the caller's scope, and how many of them nobody acknowledged yet. */
export const OpenAlarmCounts = z.object({ count: z.number().int().nonnegative(), unacknowledged: z.number().int().nonnegative() });
export type OpenAlarmCounts = z.infer<typeof OpenAlarmCounts>;

/** GET /api/alarms/open: the counts, and the newest OPEN_ALARMS_LIMIT open alarms. */
export const OpenAlarmList = OpenAlarmCounts.extend({ alarms: z.array(OpenAlarm) });
export type OpenAlarmList = z.infer<typeof OpenAlarmList>;

/**
 * Live open alarms. Client → server: `emit('subscribe-alarms', {}, ack)` joins the caller's alarms feed (the scope
 * of GET /api/alarms/open) and acknowledges with AlarmsSubscribeAck (the current counts); `emit('unsubscribe-alarms',
 * {}, ack)` leaves. Server → client: `open-alarms` (OpenAlarmsEvent) when an alarm the socket may see opened, ended
 * or was acknowledged, or when what the socket may see changed: the new counts and the alarms that changed.
 */
export const alarmTopics = {
  subscribe: 'subscribe-alarms',
  unsubscribe: 'unsubscribe-alarms',
  changed: 'open-alarms',
} as const;

export const ALARM_CHANGE_KINDS = ['opened', 'closed', 'acknowledged'] as const;
export type AlarmChangeKind = (typeof ALARM_CHANGE_KINDS)[number];

export const OpenAlarmsEvent = OpenAlarmCounts.extend({
  changes: z.array(z.object({ alarmId: z.string(), mac: z.string(), kind: z.enum(ALARM_CHANGE_KINDS) })),
});
export type OpenAlarmsEvent = z.infer<typeof OpenAlarmsEvent>;

export const AlarmsSubscribeAck = z.union([
  OpenAlarmCounts.extend({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
