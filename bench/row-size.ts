// The bytes one reading takes on disk in PostgreSQL (docs/scaling.md): the real, migrated `readings` table of a
// throwaway server (or DATABASE_URL's), filled the way ingestion fills it (time-major: every device's reading of one
// instant, then the next instant, so the (device, time) key is inserted out of order, as it is in service), then
// measured after VACUUM: heap, primary key, the partial travel index, per row. Size does not depend on the machine's
// load, only on the rows.
//   npx tsx bench/row-size.ts [--devices 1000] [--per-device 1000] [--travel-share 0.1]
// --travel-share: the fraction of devices on a travel (readings with position and travel id, the wider ones; one
// travel per device).
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openBenchDatabase } from './lib/bench-database';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    'per-device': { type: 'string', default: '1000' },
    'travel-share': { type: 'string', default: '0.1' },
  },
});
const devices = Number(args.devices);
const perDevice = Number(args['per-device']);
const travelDevices = Math.round(devices * Number(args['travel-share']));

const bench = await openBenchDatabase('sentinela_rowsize');
const db = bench.database.db;
try {
  const enterprise = await db.insertInto('enterprises').values({ name: 'Row size', email: null }).returning('id').executeTakeFirstOrThrow();
  await sql`INSERT INTO devices (mac, name, enterprise_id)
            SELECT upper(regexp_replace(lpad(to_hex(i), 12, '0'), '(..)(?!$)', '\\1:', 'g')), 'Device ' || i, ${enterprise.id}
            FROM generate_series(1, ${devices}::int) AS i`.execute(db);
  const { rows: bounds } = await sql<{ lo: number; hi: number }>`SELECT min(num) AS lo, max(num) AS hi FROM devices`.execute(db);
  const lo = Number(bounds[0]!.lo);
  // One month, so one partition: readings a minute apart, from the first of the current month.
  const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const step = Math.min(60, Math.floor((27 * 86_400) / perDevice));
  await sql.raw(`CREATE TABLE IF NOT EXISTS readings_size PARTITION OF readings FOR VALUES FROM ('${start.toISOString()}') TO ('${new Date(start.getTime() + 28 * 86_400_000).toISOString()}')`).execute(db);
  const chunk = Math.max(1, Math.floor(200_000 / devices));
  for (let k = 0; k < perDevice; k += chunk) {
    // Time-major within each statement too: ORDER BY the instant, then the device.
    await sql`INSERT INTO readings (device_num, ts, temperature, humidity, battery, lat, lng, travel_id, seq, seq_modulo)
              SELECT d, ${start}::timestamptz + (k * ${step}::int) * interval '1 second',
                     (4 + random() * 4)::real, (40 + random() * 30)::real, (90 + random() * 10)::real,
                     CASE WHEN d < ${lo + travelDevices}::int THEN -23.5 + random() END, CASE WHEN d < ${lo + travelDevices}::int THEN -46.6 + random() END,
                     CASE WHEN d < ${lo + travelDevices}::int THEN md5(d::text)::uuid END,
                     NULL, NULL
              FROM generate_series(${k}::int, ${Math.min(perDevice, k + chunk) - 1}::int) AS k, generate_series(${lo}::int, ${lo + devices - 1}::int) AS d
              ORDER BY k, d`.execute(db);
  }
  await sql`VACUUM ANALYZE readings_size`.execute(db);
  const { rows } = await sql<{ rows: string; heap: string; toast: string; pkey: string; travel: string }>`
    SELECT (SELECT count(*) FROM readings_size) AS rows,
           pg_relation_size('readings_size') AS heap,
           coalesce(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'readings_size' AND reltoastrelid <> 0)), 0) AS toast,
           (SELECT sum(pg_relation_size(i.indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'readings_size'::regclass AND i.indisprimary) AS pkey,
           coalesce((SELECT sum(pg_relation_size(i.indexrelid)) FROM pg_index i WHERE i.indrelid = 'readings_size'::regclass AND NOT i.indisprimary), 0) AS travel`.execute(db);
  const r = rows[0]!;
  const n = Number(r.rows);
  const per = (bytes: string) => Number((Number(bytes) / n).toFixed(1));
  const { rows: version } = await sql<{ server_version: string }>`SHOW server_version`.execute(db);
  const result = {
    postgres: version[0]!.server_version, rows: n, devices, perDevice, travelShare: Number(args['travel-share']),
    bytesPerRow: { heap: per(r.heap), primaryKey: per(r.pkey), travelIndex: per(r.travel), toast: per(r.toast), total: per(String(Number(r.heap) + Number(r.pkey) + Number(r.travel) + Number(r.toast))) },
  };
  console.log(`Leituras: ${n.toLocaleString('pt-BR')} (${devices} dispositivos × ${perDevice}, ${result.travelShare * 100} % em viagem), PostgreSQL ${result.postgres}`);
  console.log(`Bytes por leitura: tabela ${result.bytesPerRow.heap}, chave primária ${result.bytesPerRow.primaryKey}, índice de viagens ${result.bytesPerRow.travelIndex}, total ${result.bytesPerRow.total}`);
  console.log(JSON.stringify(result));
} finally {
  await bench.close();
}
