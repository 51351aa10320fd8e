import { z } from './zod-locale';
import { IsoDate } from './common';

// Query strings carry empty fields as ''; they mean "no filter".
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

const optionalNumber = (label: string) =>
  z.preprocess(blankToUndefined, z.coerce.number({ message: `${label} deve ser um número.` }).optional());

const optionalInstant = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: `${label} não é uma data válida.` }).optional(),
  );

const booleanFlag = z.enum(['true', 'false']).transform((v) => v === 'true').optional();

/**
 * History filter of the documents (spec 001 §3): minTemp, maxTemp, minHum, maxHum, dateInit, dateEnd, dateInitUtc,
 * dateEndUtc, isUtc, lastTwoDays. The client sends the instants it means in dateInitUtc/dateEndUtc; dateInit and dateEnd
 * keep what the user typed. Without dates the window is the last two days.
 */
export const HistoryFilter = z.object({
  minTemp: optionalNumber('Temperatura mínima'),
  maxTemp: optionalNumber('Temperatura máxima'),
  minHum: optionalNumber('Umidade mínima'),
  maxHum: optionalNumber('Umidade máxima'),
  dateInit: optionalInstant('Data inicial'),
  dateEnd: optionalInstant('Data final'),
  dateInitUtc: optionalInstant('Data inicial'),
  dateEndUtc: optionalInstant('Data final'),
  isUtc: booleanFlag,
  lastTwoDays: booleanFlag,
});
export type HistoryFilter = z.infer<typeof HistoryFilter>;

export const HistoryPageQuery = HistoryFilter.extend({
  page: z.coerce.number().int().min(1, 'Página inválida.').default(1),
  limit: z.coerce.number().int().min(1).max(1000, 'No máximo 1000 registros por página.').default(50),
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
  points: z.coerce.number().int().min(10).max(5000).default(1000),
});

const Stats = z.object({ min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable() });

/** A chart series: raw points for short ranges, min/max/mean per time bucket for long ones. */
export const HistorySeries = z.object({
  bucketSeconds: z.number().int(),
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

const LimitInput = z.union([z.number(), z.string().trim().transform((v, ctx) => {
  if (v === '') return null;
  const n = Number(v.replace(',', '.'));
  if (Number.isNaN(n)) {
    ctx.addIssue({ code: 'custom', message: 'Limite deve ser um número.' });
    return z.NEVER;
  }
  return n;
}), z.null()]);

/** Device configuration (D4): limits may arrive as strings (the documents parse them as numbers). */
export const DeviceConfigInput = z
  .object({
    temperature: z.object({ min: LimitInput.optional(), max: LimitInput.optional() }).optional(),
    humidity: z.object({ min: LimitInput.optional(), max: LimitInput.optional() }).optional(),
    out_of_range_minutes: z.number().int().min(0).max(1440).optional(),
    no_data_minutes: z.number().int().min(1).max(10080).nullable().optional(),
  });

export const UpdateDeviceBody = z.object({
  name: z.string().trim().min(1, 'Informe o nome do dispositivo.').max(80, 'O nome deve ter no máximo 80 caracteres.').optional(),
  location_id: z.uuid('Local inválido.').nullable().optional(),
  group_id: z.uuid('Grupo inválido.').nullable().optional(),
  config: DeviceConfigInput.optional(),
});
