import { sql, type Kysely } from 'kysely';

/**
 * Hourly roll-ups of readings, maintained off the ingestion hot path (issue 15, item 3; ADR 0045, superseding 0041).
 *
 * - `reading_rollups`: per device and UTC hour, the number of readings and, per measure (temperature, humidity,
 *   battery), how many held a value, their minimum, maximum and sum. The key carries every value (INCLUDE): a
 *   device's year is an index-only scan of about 120 pages, wherever its rows lie in the heap. Only the roll-up
 *   job writes it.
 * - `reading_rollup_state` (one row): roll-ups are trusted for hours before `trusted_before`, except hours marked.
 *   `published_before` is where the job means to move that line next; ingestion reads it in the batch's transaction after
 *   its COPY and marks the hours of readings older than it. `published_xmax` is the first transaction id not yet
 *   started when it was published: once every older transaction has ended, no batch that saw the previous line can
 *   still commit, and the line may move.
 * - `reading_rollup_marks`: (device, hour) pairs whose readings changed behind the line (a reading that arrived late,
 *   a seed, a bulk change). Readers read such hours from readings; the job recomputes them and removes the marks it
 *   read. One row per batch and pair, no conflict handling: a batch never waits on another batch's mark.
 *
 * The existing readings are rolled up here, in one statement, and the line starts three hours back.
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
  `CREATE TABLE reading_rollup_marks (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     device_num integer NOT NULL,
     bucket timestamptz NOT NULL
   )`,
  `CREATE INDEX reading_rollup_marks_device_idx ON reading_rollup_marks (device_num, bucket)`,
  `CREATE TABLE reading_rollup_state (
     id boolean PRIMARY KEY DEFAULT true CHECK (id),
     trusted_before timestamptz NOT NULL,
     published_before timestamptz NOT NULL,
     published_xmax bigint
   )`,
  `INSERT INTO reading_rollups (device_num, bucket, n, t_n, t_min, t_max, t_sum, h_n, h_min, h_max, h_sum, b_n, b_min, b_max, b_sum)
   SELECT device_num, date_bin('1 hour', ts, timestamptz 'epoch'), count(*),
     count(temperature), min(temperature), max(temperature), coalesce(sum(temperature::float8), 0),
     count(humidity), min(humidity), max(humidity), coalesce(sum(humidity::float8), 0),
     count(battery), min(battery), max(battery), coalesce(sum(battery::float8), 0)
   FROM readings GROUP BY 1, 2 ORDER BY 1, 2`,
  // Every reading is rolled up now, so any line is right; no xmax: the job stamps one before it moves the line.
  `INSERT INTO reading_rollup_state (trusted_before, published_before)
   SELECT h, h FROM date_bin('1 hour', now() - interval '3 hours', timestamptz 'epoch') h`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
