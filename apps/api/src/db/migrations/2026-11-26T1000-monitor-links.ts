import { sql, type Kysely } from 'kysely';

/**
 * Read-only monitor links for wall displays (issue 11, item 6; ADR 26).
 * - monitor_links: a link of one enterprise, with the hash of its secret token (the token itself is shown once),
 *   its expiry, its revocation and how often and when it was last used (the uses themselves go to access_log).
 * - monitor_link_devices / monitor_link_travels: what the link shows. A device or travel removed later simply
 *   drops out of the link.
 */
const statements = [
  `CREATE TABLE monitor_links (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id) ON DELETE CASCADE,
     name text NOT NULL,
     token_hash bytea NOT NULL UNIQUE,
     created_by uuid REFERENCES users(id) ON DELETE SET NULL,
     created_at timestamptz NOT NULL,
     expires_at timestamptz NOT NULL,
     revoked_at timestamptz,
     last_used_at timestamptz,
     use_count integer NOT NULL DEFAULT 0
   )`,
  `CREATE INDEX monitor_links_enterprise_idx ON monitor_links (enterprise_id, created_at)`,
  `CREATE TABLE monitor_link_devices (
     link_id uuid NOT NULL REFERENCES monitor_links(id) ON DELETE CASCADE,
     device_id uuid NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     PRIMARY KEY (link_id, device_id)
   )`,
  `CREATE TABLE monitor_link_travels (
     link_id uuid NOT NULL REFERENCES monitor_links(id) ON DELETE CASCADE,
     travel_id uuid NOT NULL REFERENCES travels(id) ON DELETE CASCADE,
     PRIMARY KEY (link_id, travel_id)
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
