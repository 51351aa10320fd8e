import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { IsoDate } from './common';
import { cleanText } from './values';

const Range = z.object({ min: z.number().nullable(), max: z.number().nullable() });

export const DeviceConfig = z.object({
  temperature: Range,
  humidity: Range,
  /** Minutes a reading may stay out of range before an alarm opens (0: at once). */
  out_of_range_minutes: z.number().int().optional(),
  /** Minutes without readings before a "no data" alarm opens (null: never). */
  no_data_minutes: z.number().int().nullable().optional(),
  /** The expected interval between readings set by the user (seconds); null: learned from the readings. */
  report_interval_seconds: z.number().int().nullable().optional(),
});
export type DeviceConfig = z.infer<typeof DeviceConfig>;

export const Device = z.object({
  _id: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  mac: z.string(),
  key: z.string().nullable(),
  lastSyncDate: IsoDate.nullable(),
  created_at: IsoDate,
  config: DeviceConfig,
  enterprise: z.object({ _id: z.string(), name: z.string() }).nullable(),
  battery: z.number().nullable(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  /** The interval the device is expected to report at (configured, else learned; null: not known yet). ADR 0035. */
  expectedIntervalSeconds: z.number().nullable(),
  /** The due date ("YYYY-MM-DD") of the device's calibration certificate in force, or null without one (X12, ADR 0077). */
  calibration_due_at: z.string().nullable().optional(),
});
export type Device = z.infer<typeof Device>;

export const DeviceList = z.array(Device);

export const MacParam = z.object({
  mac: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/, 'Endereço MAC inválido.'),
});

export const HistoricCountResponse = z.object({ count: z.number().int() });

/** A device's name (rename, configuration, a device within a travel). */
export const deviceName = cleanText('O nome', { min: 1, max: 80, requiredMessage: 'Informe o nome do dispositivo.' });

export const UpdateDeviceNameBody = z.object({ name: deviceName, reason: changeReason() });
