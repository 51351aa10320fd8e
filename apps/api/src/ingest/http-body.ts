import { INGEST_MAX_BATCH, MEASURE_BOUNDS, z, type Measure } from '@sentinela/contract';

/**
 * The body of POST /api/ingest/readings as the OpenAPI document describes it (ADR 34). Not used to validate: each
 * reading is checked on its own by reading-validator.ts, so that one bad reading is rejected with its reason while
 * the rest of the batch is stored. The bounds are the same (the contract's MEASURE_BOUNDS).
 */
const measure = (name: Measure, description: string) =>
  z
    .number()
    .min(MEASURE_BOUNDS[name].min)
    .max(MEASURE_BOUNDS[name].max)
    .nullable()
    .optional()
    .meta({ description });

export const IngestReadingDoc = z.object({
  mac: z.string().meta({ description: 'The beacon’s MAC address, e.g. AA:BB:CC:DD:EE:01 (any case, with or without separators).' }),
  ts: z.string().meta({ format: 'date-time', description: 'When the reading was taken: ISO-8601 with its offset, at most 5 minutes ahead and one year back.' }),
  temperature: measure('temperature', 'Temperature, °C.'),
  humidity: measure('humidity', 'Relative humidity, %.'),
  battery: measure('battery', 'Battery, %.'),
  lat: measure('lat', 'Latitude (send with lng).'),
  lng: measure('lng', 'Longitude (send with lat).'),
  seq: z.number().int().min(0).max(65_535).nullable().optional().meta({ description: 'The sensor’s 16-bit sequence counter (0–65535, wraps to 0): readings lost on the way are counted from it (ADR 35).' }),
  fw: z
    .string()
    .regex(/^[0-9A-Za-z][0-9A-Za-z._+-]{0,31}$/)
    .nullable()
    .optional()
    .meta({ description: 'The firmware version the device runs, e.g. "1.4.2": stored on the device, and a change is recorded as a "Firmware" device event (issue 26).' }),
});

export const IngestBatchDoc = z
  .object({ readings: z.array(IngestReadingDoc).max(INGEST_MAX_BATCH) })
  .meta({
    description: `Up to ${INGEST_MAX_BATCH} readings. Each is stored or rejected on its own; a reading already stored (same device and time) counts as a duplicate.`,
    examples: [{ readings: [{ mac: 'AA:BB:CC:DD:EE:01', ts: '2026-11-22T09:00:00Z', temperature: 4.5, humidity: 61, battery: 87 }] }],
  });
