import { sql, type Kysely } from 'kysely';

/**
 * Hourly roll-ups of readings (issue 15, item 3; ADR 41): per device and UTC hour, the number of readings and, per
 * measure (temperature, humidity, battery), how many held a value, their minimum, maximum and sum. Year-long charts
 * read 8,760 of these rows per device instead of every reading; the ingestion keeps them in the transaction that
 * stores a batch (modules/readings/rollups.ts). The key carries every value (INCLUDE): a device's rows are scattered
 * over the table (each hour is written beside every other device's), while its index entries lie together, so a
 * year is an index-only scan of about 120 pages. Each batch rewrites its devices' current hours, so the table is
 * vacuumed early (1 % of dead or new rows, not 20 %): that keeps the index lean and its pages all-visible.
 * The existing readings are rolled up here, in one statement.
 */
const statements = [
  `CREATE TABLE reading_rollups (
     device_num integer NOT NULL,
     bucket timestamptz NOT NULL,
     n integer NOT NULL,
     t_n integer NOT NULL, t_min real, t_max real, t_sum double precision NOT NULL,
     h_n integer NOT NULL, h_min real, h_max real, h_sum double precision NOT NULL,
     b_n integer NOT NULL, b_min real, b_max real, b_sum double precision NOT NULL,
     PRIMARY KEY (device_num, bucket) INCLUDE (n, t_n, t_min, t_max, t_sum, h_n, h_min, h_max, h_sum, b_n, b_min, b_max, b_sum)
   ) WITH (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01)`,
  `INSERT INTO reading_rollups (device_num, bucket, n, t_n, t_min, t_max, t_sum, h_n, h_min, h_max, h_sum, b_n, b_min, b_max, b_sum)
   SELECT device_num, date_bin('1 hour', ts, timestamptz 'epoch'), count(*),
     count(temperature), min(temperature), max(temperature), coalesce(sum(temperature::float8), 0),
     count(humidity), min(humidity), max(humidity), coalesce(sum(humidity::float8), 0),
     count(battery), min(battery), max(battery), coalesce(sum(battery::float8), 0)
   FROM readings GROUP BY 1, 2 ORDER BY 1, 2`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
