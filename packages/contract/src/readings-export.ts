import { z } from './zod-locale';
import { IsoDate } from './common';
import { MacParam } from './devices';
import { boundedInstant, boundedInt, queryField } from './values';

/**
 * GET /api/readings (X13, ADR 65): readings of the devices the caller may see, in pages with a stable cursor, or the
 * whole period as CSV (`Accept: text/csv`). One device (`mac`) or all of them, each device's readings in time order.
 */

export const READINGS_EXPORT_MAX_LIMIT = 5000;

export const READINGS_EXPORT_MESSAGES = {
  badCursor: 'Cursor inválido. Use o next_cursor de uma resposta anterior.',
  cursorMismatch: 'O cursor pertence a outra consulta (mac, from ou to diferentes). Repita a consulta sem cursor.',
  fromAfterTo: 'A data inicial deve ser anterior à data final.',
  deviceNotFound: 'Dispositivo não encontrado.',
} as const;

export const ReadingsExportQuery = z.object({
  mac: queryField(MacParam.shape.mac),
  /** From this instant (inclusive); default: two days before `to`. */
  from: queryField(boundedInstant('A data inicial', { requireOffset: true })),
  /** Up to this instant (exclusive); default: now. */
  to: queryField(boundedInstant('A data final', { requireOffset: true })),
  limit: boundedInt('O limite', 1, READINGS_EXPORT_MAX_LIMIT, { coerce: true }).default(1000),
  cursor: queryField(z.string().max(400, READINGS_EXPORT_MESSAGES.badCursor)),
});
export type ReadingsExportQuery = z.infer<typeof ReadingsExportQuery>;

export const ExportedReading = z.object({
  mac: z.string(),
  ts: IsoDate,
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  battery: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
});
export type ExportedReading = z.infer<typeof ExportedReading>;

export const ReadingsExportPage = z.object({
  data: z.array(ExportedReading),
  /** Pass it as `cursor` for the next page; null once the period is exhausted. */
  next_cursor: z.string().nullable(),
});
export type ReadingsExportPage = z.infer<typeof ReadingsExportPage>;

/** The CSV's columns, in order (the JSON field names). */
export const READINGS_CSV_COLUMNS = ['mac', 'ts', 'temperature', 'humidity', 'battery', 'lat', 'lng'] as const;
