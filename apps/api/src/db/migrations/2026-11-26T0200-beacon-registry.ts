import { sql, type Kysely } from 'kysely';

/**
 * Beacon registry and fleet administration (ADR 18).
 * - enterprises.name_key: the name folded for comparison (Portuguese accents off, lower case, spaces collapsed) as
 *   a generated column with a unique index, so two enterprises never share a name whoever inserts the row (the
 *   service, the seed, a bench). Plain translate/lower/regexp_replace: PGlite has no unaccent, and translate runs
 *   before lower so that the result does not depend on the database's locale. Names already repeated would stop
 *   the unique index: the later ones are renamed "{name} (2)", "(3)"… first.
 * - discovered_devices: MACs that gateways sent readings for and that are not registered, one row per MAC
 *   (aggregated per ingested batch, never a row per reading), for the super admin to register.
 */
const NAME_KEY_SQL = `regexp_replace(lower(translate(name,
  'ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäéèêëíìîïóòôõöúùûüçñ',
  'AAAAAEEEEIIIIOOOOOUUUUCNaaaaaeeeeiiiiooooouuuucn')), '\\s+', ' ', 'g')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: string; name: string; key: string }>`
    SELECT id, name, btrim(${sql.raw(NAME_KEY_SQL)}) AS key FROM enterprises ORDER BY created_at, id`.execute(db);
  const seen = new Map<string, number>();
  for (const row of rows.rows) {
    const n = (seen.get(row.key) ?? 0) + 1;
    seen.set(row.key, n);
    if (n > 1) await sql`UPDATE enterprises SET name = ${`${row.name} (${n})`} WHERE id = ${row.id}`.execute(db);
  }
  await sql.raw(`ALTER TABLE enterprises ADD COLUMN name_key text GENERATED ALWAYS AS (btrim(${NAME_KEY_SQL})) STORED`).execute(db);
  await sql`CREATE UNIQUE INDEX enterprises_name_key_idx ON enterprises (name_key)`.execute(db);

  await sql`CREATE TABLE discovered_devices (
     mac text PRIMARY KEY,
     first_seen_at timestamptz NOT NULL,
     last_seen_at timestamptz NOT NULL,
     last_gateway_id uuid REFERENCES gateways(id) ON DELETE SET NULL,
     reading_count bigint NOT NULL
   )`.execute(db);
  await sql`CREATE INDEX discovered_devices_last_seen_idx ON discovered_devices (last_seen_at DESC)`.execute(db);
}
