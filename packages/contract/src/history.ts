import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { reportIntervalSeconds } from './completeness';
import { IsoDate, pageNumber } from './common';
import { deviceName } from './devices';
import { AlarmLimitsInput, boundedInstant, boundedInt, measureInput, queryField, type Measure } from './values';

// Query strings carry empty fields as ''; they mean "no filter".

/** A value filter: compared with a measure's column, so it must be a value that column holds. */
const filterValue = (measure: Measure, label: string) => queryField(measureInput(measure, label).transform((v) => v ?? undefined));

const filterInstant = (label: string) => queryField(boundedInstant(label));

const booleanFlag = z.enum(['true', 'false']).transform((v) => v === 'true').optional();

/**
 * History filter of the documents (spec 001 §3): minTemp, maxTemp, minHum, maxHum, dateInit, dateEnd, dateInitUtc,
 * dateEndUtc, isUtc, lastTwoDays. The client sends the instants it means in dateInitUtc/dateEndUtc; dateInit and dateEnd
 * keep what the user typed. Without dates the window is the last two days.
 */
export const HistoryFilter = z.object({
  minTemp: filterValue('temperature', 'Temperatura mínima'),
  maxTemp: filterValue('temperature', 'Temperatura máxima'),
  minHum: filterValue('humidity', 'Umidade mínima'),
  maxHum: filterValue('humidity', 'Umidade máxima'),
  dateInit: filterInstant('Data inicial'),
  dateEnd: filterInstant('Data final'),
  dateInitUtc: filterInstant('Data inicial'),
  dateEndUtc: filterInstant('Data final'),
  isUtc: booleanFlag,
  lastTwoDays: booleanFlag,
});
export type HistoryFilter = z.infer<typeof HistoryFilter>;

export const HistoryPageQuery = HistoryFilter.extend({
  page: pageNumber(),
  limit: boundedInt('Registros por página', 1, 1000, { coerce: true }).default(50),
});

export const Reading = z.object({
  createdAt: IsoDate,
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  battery: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  travelId: z.string().nullable(),
  mac: z.string(),
});
export type Reading = z.infer<typeof Reading>;

export const HistoryPage = z.object({
  data: z.array(Reading),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  from: IsoDate,
  to: IsoDate,
});
export type HistoryPage = z.infer<typeof HistoryPage>;

export const SeriesQuery = HistoryFilter.extend({
  points: boundedInt('Pontos', 10, 5000, { coerce: true }).default(1000),
});

const Stats = z.object({ min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable() });

/** A chart series: raw points for short ranges, min/max/mean per time bucket for long ones. */
export const HistorySeries = z.object({
  bucketSeconds: z.number().int(),
  /**
   * ADR 0035: readings further apart than this (seconds) are a gap the chart must not draw a line across; null when
   * the device's expected interval is not known yet (the chart then judges by the series' own spacing).
   */
  gapSeconds: z.number().nullable(),
  count: z.number().int(),
  t: z.array(z.number()),
  temperature: z.object({ min: z.array(z.number().nullable()), max: z.array(z.number().nullable()), mean: z.array(z.number().nullable()) }),
  humidity: z.object({ min: z.array(z.number().nullable()), max: z.array(z.number().nullable()), mean: z.array(z.number().nullable()) }),
  stats: z.object({ temperature: Stats, humidity: Stats }),
  limits: z.object({
    temperature: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
    humidity: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  }),
  from: IsoDate,
  to: IsoDate,
});
export type HistorySeries = z.infer<typeof HistorySeries>;

export const DeviceEvent = z.object({
  _id: z.string(),
  created_at: IsoDate,
  type: z.string(),
  type_formatted: z.string(),
  message: z.string(),
  user: z.object({ name: z.string() }).nullable(),
  client: z.string().nullable(),
  clientVersion: z.string().nullable(),
  clientOs: z.string().nullable(),
  apiVersion: z.string(),
});
export const DeviceEventsResponse = z.object({ content: z.array(DeviceEvent) });

/** Device configuration (D4): limits may arrive as strings (the documents parse them as numbers). */
export const DeviceConfigInput = AlarmLimitsInput.extend({
  out_of_range_minutes: boundedInt('Minutos fora da faixa', 0, 1440).optional(),
  no_data_minutes: boundedInt('Minutos sem dados', 1, 10080).nullable().optional(),
  /** The expected interval between readings (ADR 0035); null: learned from the readings. */
  report_interval_seconds: reportIntervalSeconds.nullable().optional(),
});

export const UpdateDeviceBody = z.object({
  name: deviceName.optional(),
  location_id: z.uuid('Local inválido.').nullable().optional(),
  group_id: z.uuid('Grupo inválido.').nullable().optional(),
  config: DeviceConfigInput.optional(),
  /** Why (GxP mode, ADR 0061): required there for a change of name, limits, configuration or enterprise. */
  reason: changeReason(),
});
