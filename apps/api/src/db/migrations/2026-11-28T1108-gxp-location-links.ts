import { sql, type Kysely } from 'kysely';

/**
 * GxP mode (ADR 0063, amending ADR 0061): a device's place — its location and its group — is one of its links, like its
 * enterprise and its users, so a person's change of it in a GxP enterprise needs a reason for change. Deleting a
 * location or a group that holds devices unlinks them (ON DELETE SET NULL fires the devices' audit trigger), so that
 * deletion needs a reason too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE audit_tables SET reason_columns = reason_columns || '{location_id,group_id}'::text[]
            WHERE table_name = 'devices' AND NOT (reason_columns @> '{location_id,group_id}'::text[])`.execute(db);
  await sql`SELECT audit_refresh('devices')`.execute(db);
}
