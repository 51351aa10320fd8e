import { z } from './zod-locale';
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
    .object({ message: z.string(), date: IsoDate, user: z.object({ _id: z.string(), name: z.string() }).nullable() })
    .nullable(),
  acknowledge_formatted: z.enum(['Sim', 'Não']),
  travel_id: z.string().nullable(),
});
export type AlarmNotification = z.infer<typeof AlarmNotification>;

export const AlarmNotificationList = z.array(AlarmNotification);

export const AcknowledgeAlarmBody = z.object({
  message: cleanText('A mensagem', { min: 1, max: 500, multiline: true, requiredMessage: 'Informe a mensagem de reconhecimento.' }),
});
