import { sql, type Kysely } from 'kysely';

/**
 * The audit trail (issue 22, ADR 0060): written by the database itself, hash-chained per enterprise, append-only.
 *
 * - `audit_trail`: one entry per change of an audited row (or per event written with `audit_record`: sign-ins, report
 *   downloads, signatures), in chains: one per enterprise (`chain` = its id) and one for the platform ('platform').
 *   `hash` = sha256(prev_hash || audit_canonical(entry)), hex; the first entry's prev_hash is 64 zeros.
 * - `audit_chain_heads`: each chain's last sequence and hash; the row is locked while an entry is appended, so two
 *   concurrent changes cannot take the same sequence or fork the chain.
 * - `audit_record(...)`: the one function that appends (the triggers call it; so do sign-ins and downloads).
 * - `audit_attach(table, entity, enterprise_ref, id_column, ignored, redacted, reason_columns)`: puts the row triggers on
 *   a table, one line per table; `ignored` columns never make an entry on update (state the ingestion keeps current),
 *   `redacted` columns never show their value (password hashes, token hashes, keys), `reason_columns` ('{*}': all; on a
 *   link table, its rows) need a reason for change from a person in a GxP enterprise (SQLSTATE SNR01). A
 *   migration that adds a column to an audited table calls `audit_refresh('<table>')` (a test fails otherwise).
 * - UPDATE, DELETE and TRUNCATE of `audit_trail` are refused by triggers; so are UPDATE and DELETE of `readings`, but
 *   for a transaction that declares a removal (`sentinela.readings_removal`, the retention hook) or drops partitions.
 * - GxP mode (ADR 0061) and electronic signatures (ADR 0062): `enterprises.gxp`, `electronic_signatures` bound to alarms
 *   (acknowledgement) and reports (approval), and `signature_lockouts` for wrong passwords.
 */
const statements = [
  `CREATE TABLE audit_trail (
     chain text NOT NULL,
     seq bigint NOT NULL,
     enterprise_id uuid,
     at timestamptz NOT NULL,
     actor_type text NOT NULL,
     actor_id text,
     actor_name text,
     action text NOT NULL,
     entity text NOT NULL,
     entity_id text,
     subject_ids text[] NOT NULL DEFAULT '{}',
     before jsonb,
     after jsonb,
     reason text,
     client_address text,
     client text,
     client_version text,
     client_os text,
     user_agent text,
     prev_hash text NOT NULL,
     hash text NOT NULL,
     PRIMARY KEY (chain, seq)
   )`,
  `CREATE INDEX audit_trail_at_idx ON audit_trail (chain, at)`,
  `CREATE INDEX audit_trail_subjects_idx ON audit_trail USING gin (subject_ids)`,
  `CREATE TABLE audit_chain_heads (
     chain text PRIMARY KEY,
     seq bigint NOT NULL,
     hash text NOT NULL
   )`,
  `CREATE TABLE audit_tables (
     table_name text PRIMARY KEY,
     entity text NOT NULL,
     enterprise_ref text NOT NULL,
     id_column text NOT NULL,
     ignored text[] NOT NULL,
     redacted text[] NOT NULL,
     reason_columns text[] NOT NULL DEFAULT '{}'
   )`,

  // The canonical text of an entry: every column but hash, in this order, as a JSON array (PostgreSQL's jsonb text).
  `CREATE FUNCTION audit_canonical(t audit_trail) RETURNS text LANGUAGE sql STABLE AS $$
     SELECT jsonb_build_array(t.chain, t.seq, to_char(t.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       t.enterprise_id, t.actor_type, t.actor_id, t.actor_name, t.action, t.entity, t.entity_id, to_jsonb(t.subject_ids),
       t.before, t.after, t.reason, t.client_address, t.client, t.client_version, t.client_os, t.user_agent, t.prev_hash)::text
   $$`,
  `CREATE FUNCTION audit_hash(t audit_trail) RETURNS text LANGUAGE sql STABLE AS $$
     SELECT encode(sha256(convert_to(t.prev_hash || audit_canonical(t), 'UTF8')), 'hex')
   $$`,

  `CREATE FUNCTION audit_record(p_enterprise uuid, p_action text, p_entity text, p_entity_id text, p_subject_ids text[],
       p_before jsonb, p_after jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
   DECLARE
     v_ctx jsonb := nullif(current_setting('sentinela.audit', true), '')::jsonb;
     v_chain text := coalesce(p_enterprise::text, 'platform');
     r audit_trail%ROWTYPE;
   BEGIN
     SELECT seq, hash INTO r.seq, r.prev_hash FROM audit_chain_heads WHERE chain = v_chain FOR UPDATE;
     IF NOT FOUND THEN
       INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (v_chain, 0, repeat('0', 64)) ON CONFLICT (chain) DO NOTHING;
       SELECT seq, hash INTO r.seq, r.prev_hash FROM audit_chain_heads WHERE chain = v_chain FOR UPDATE;
     END IF;
     r.seq := r.seq + 1;
     r.chain := v_chain;
     r.enterprise_id := p_enterprise;
     r.at := clock_timestamp();
     IF v_ctx IS NULL THEN
       -- A write from outside the application: recorded with the database role that made it.
       r.actor_type := 'database';
       r.actor_name := session_user;
     ELSE
       r.actor_type := coalesce(v_ctx ->> 'actor_type', 'system');
       r.actor_id := v_ctx ->> 'actor_id';
       r.actor_name := v_ctx ->> 'actor_name';
       r.reason := v_ctx ->> 'reason';
       r.client_address := v_ctx ->> 'client_address';
       r.client := v_ctx ->> 'client';
       r.client_version := v_ctx ->> 'client_version';
       r.client_os := v_ctx ->> 'client_os';
       r.user_agent := v_ctx ->> 'user_agent';
     END IF;
     r.action := p_action;
     r.entity := p_entity;
     r.entity_id := p_entity_id;
     r.subject_ids := coalesce(p_subject_ids, '{}');
     r.before := p_before;
     r.after := p_after;
     r.hash := audit_hash(r);
     INSERT INTO audit_trail SELECT r.*;
     UPDATE audit_chain_heads SET seq = r.seq, hash = r.hash WHERE chain = v_chain;
     RETURN r.seq;
   END $$`,

  // The enterprise of a row: its own column ('enterprise_id', or 'id' for enterprises), or 'column:table' to look it
  // up by the row's reference (a link row's device, say).
  `CREATE FUNCTION audit_enterprise_of(p_ref text, p_row jsonb) RETURNS uuid LANGUAGE plpgsql STABLE AS $$
   DECLARE v_enterprise uuid;
   BEGIN
     IF p_ref = '' OR p_row IS NULL THEN RETURN NULL; END IF;
     IF position(':' IN p_ref) = 0 THEN RETURN (p_row ->> p_ref)::uuid; END IF;
     IF p_row ->> split_part(p_ref, ':', 1) IS NULL THEN RETURN NULL; END IF;
     EXECUTE format('SELECT enterprise_id FROM %I WHERE id = $1', split_part(p_ref, ':', 2))
       INTO v_enterprise USING (p_row ->> split_part(p_ref, ':', 1))::uuid;
     RETURN v_enterprise;
   END $$`,

  `CREATE FUNCTION audit_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     v_entity text := TG_ARGV[0];
     v_ref text := TG_ARGV[1];
     v_id_column text := TG_ARGV[2];
     v_ignored text[] := TG_ARGV[3]::text[];
     v_redacted text[] := TG_ARGV[4]::text[];
     v_reason_columns text[] := TG_ARGV[5]::text[];
     v_ctx jsonb := nullif(current_setting('sentinela.audit', true), '')::jsonb;
     v_needs_reason boolean := false;
     v_old jsonb; v_new jsonb; v_row jsonb; v_before jsonb; v_after jsonb;
     v_action text; v_key text; v_subjects text[]; v_enterprise uuid; v_from uuid; v_to uuid;
   BEGIN
     IF TG_OP <> 'INSERT' THEN v_old := to_jsonb(OLD); END IF;
     IF TG_OP <> 'DELETE' THEN v_new := to_jsonb(NEW); END IF;
     v_row := coalesce(v_new, v_old);
     IF TG_OP = 'UPDATE' THEN
       -- Only what changed, and never the state the ingestion keeps current.
       SELECT jsonb_object_agg(o.key, o.value), jsonb_object_agg(o.key, v_new -> o.key) INTO v_before, v_after
         FROM jsonb_each(v_old) o
         WHERE NOT (o.key = ANY (v_ignored)) AND o.value IS DISTINCT FROM v_new -> o.key;
       IF v_before IS NULL THEN RETURN NULL; END IF;
       v_action := 'update';
     ELSIF TG_OP = 'INSERT' THEN
       v_after := v_new;
       v_action := 'create';
     ELSE
       v_before := v_old;
       v_action := 'delete';
     END IF;
     v_from := audit_enterprise_of(v_ref, v_old);
     v_to := audit_enterprise_of(v_ref, v_new);
     -- GxP mode (ADR 0061): a person's change of these columns (or of a link: a row of a link table) needs a reason, but
     -- a link written with a record it joins (a travel created with its devices, a user with theirs) is part of that
     -- record's creation.
     IF cardinality(v_reason_columns) > 0 AND v_ctx ->> 'actor_type' IN ('user', 'api_token') AND nullif(v_ctx ->> 'reason', '') IS NULL THEN
       IF TG_OP = 'UPDATE' THEN
         v_needs_reason := v_reason_columns = '{*}' OR EXISTS (SELECT 1 FROM jsonb_object_keys(v_after) k WHERE k = ANY (v_reason_columns));
       ELSIF position(':' IN v_ref) > 0 THEN
         v_needs_reason := NOT EXISTS (SELECT 1 FROM jsonb_each_text(v_row) e
           WHERE e.key LIKE '%\\_id' AND coalesce(current_setting('sentinela.created', true), '') LIKE '%,' || e.value || '%');
       END IF;
       IF v_needs_reason AND EXISTS (SELECT 1 FROM enterprises WHERE id IN (v_from, v_to) AND gxp) THEN
         RAISE EXCEPTION 'Informe o motivo da alteração.' USING ERRCODE = 'SNR01';
       END IF;
     END IF;
     -- What this transaction created, for the rule above.
     IF TG_OP = 'INSERT' AND position(':' IN v_ref) = 0 AND v_row ? 'id' THEN
       PERFORM set_config('sentinela.created', coalesce(current_setting('sentinela.created', true), '') || ',' || (v_row ->> 'id'), true);
     END IF;
     -- Secrets are never copied: a changed one shows as changed, nothing more.
     FOREACH v_key IN ARRAY v_redacted LOOP
       IF v_before ? v_key AND v_before ->> v_key IS NOT NULL THEN v_before := jsonb_set(v_before, ARRAY[v_key], '"[redigido]"'); END IF;
       IF v_after ? v_key AND v_after ->> v_key IS NOT NULL THEN v_after := jsonb_set(v_after, ARRAY[v_key], '"[redigido]"'); END IF;
     END LOOP;
     -- What the entry is about, for searching: the row's id and the ids it refers to.
     SELECT coalesce(array_agg(DISTINCT e.value #>> '{}'), '{}') INTO v_subjects
       FROM jsonb_each(v_row) e
       WHERE (e.key = v_id_column OR e.key = 'id' OR e.key LIKE '%\\_id') AND e.key <> 'enterprise_id'
         AND jsonb_typeof(e.value) = 'string';
     -- One entry per enterprise the row belonged to or now belongs to (a device moved between two: both chains, the
     -- lower id first so that two such moves lock the chains in the same order); none: the platform's chain.
     IF v_from IS NULL AND v_to IS NULL THEN
       PERFORM audit_record(NULL, v_action, v_entity, v_row ->> v_id_column, v_subjects, v_before, v_after);
     ELSE
       FOR v_enterprise IN SELECT DISTINCT x FROM unnest(ARRAY[v_from, v_to]) x WHERE x IS NOT NULL ORDER BY 1 LOOP
         PERFORM audit_record(v_enterprise, v_action, v_entity, v_row ->> v_id_column, v_subjects, v_before, v_after);
       END LOOP;
     END IF;
     RETURN NULL;
   END $$`,

  `CREATE FUNCTION audit_attach(p_table text, p_entity text, p_enterprise_ref text, p_id_column text DEFAULT 'id',
       p_ignored text[] DEFAULT '{}', p_redacted text[] DEFAULT '{}', p_reason_columns text[] DEFAULT '{}') RETURNS void LANGUAGE plpgsql AS $$
   DECLARE v_columns text; v_changed text; v_args text;
   BEGIN
     INSERT INTO audit_tables (table_name, entity, enterprise_ref, id_column, ignored, redacted, reason_columns)
       VALUES (p_table, p_entity, p_enterprise_ref, p_id_column, p_ignored, p_redacted, p_reason_columns)
       ON CONFLICT (table_name) DO UPDATE SET entity = excluded.entity, enterprise_ref = excluded.enterprise_ref,
         id_column = excluded.id_column, ignored = excluded.ignored, redacted = excluded.redacted, reason_columns = excluded.reason_columns;
     -- UPDATE OF the audited columns only, WHEN one of them changed: an update of ignored columns (the ingestion's
     -- last state) never even calls the trigger function.
     SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum),
            string_agg(format(CASE WHEN atttypid = 'json'::regtype THEN 'OLD.%1$I::text IS DISTINCT FROM NEW.%1$I::text'
                                   ELSE 'OLD.%1$I IS DISTINCT FROM NEW.%1$I' END, attname), ' OR ' ORDER BY attnum)
       INTO v_columns, v_changed
       FROM pg_attribute
       WHERE attrelid = p_table::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
         AND NOT (attname = ANY (p_ignored));
     v_args := format('%L, %L, %L, %L, %L, %L', p_entity, p_enterprise_ref, p_id_column, p_ignored::text, p_redacted::text, p_reason_columns::text);
     EXECUTE format('DROP TRIGGER IF EXISTS audit_row_write ON %I', p_table);
     EXECUTE format('DROP TRIGGER IF EXISTS audit_row_update ON %I', p_table);
     EXECUTE format('CREATE TRIGGER audit_row_write AFTER INSERT OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row_change(%s)',
       p_table, v_args);
     EXECUTE format('CREATE TRIGGER audit_row_update AFTER UPDATE OF %s ON %I FOR EACH ROW WHEN (%s) EXECUTE FUNCTION audit_row_change(%s)',
       v_columns, p_table, v_changed, v_args);
   END $$`,
  `CREATE FUNCTION audit_refresh(p_table text) RETURNS void LANGUAGE sql AS $$
     SELECT audit_attach(table_name, entity, enterprise_ref, id_column, ignored, redacted, reason_columns) FROM audit_tables WHERE table_name = p_table
   $$`,

  // Append-only: the trail refuses UPDATE, DELETE and TRUNCATE; chain heads refuse DELETE and TRUNCATE.
  `CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
   END $$`,
  `CREATE TRIGGER audit_trail_append_only BEFORE UPDATE OR DELETE ON audit_trail FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()`,
  `CREATE TRIGGER audit_trail_no_truncate BEFORE TRUNCATE ON audit_trail FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change()`,
  `CREATE TRIGGER audit_chain_heads_kept BEFORE DELETE ON audit_chain_heads FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()`,
  `CREATE TRIGGER audit_chain_heads_no_truncate BEFORE TRUNCATE ON audit_chain_heads FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change()`,

  // Readings are never changed nor deleted, but by the declared removal path (retention) or by dropping partitions.
  `CREATE FUNCTION readings_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' AND coalesce(current_setting('sentinela.readings_removal', true), '') <> '' THEN RETURN OLD; END IF;
     RAISE EXCEPTION 'readings are never changed nor deleted: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
   END $$`,
  `CREATE TRIGGER readings_immutable BEFORE UPDATE OR DELETE ON readings FOR EACH ROW EXECUTE FUNCTION readings_refuse_change()`,
  `CREATE TRIGGER readings_no_truncate BEFORE TRUNCATE ON readings FOR EACH STATEMENT EXECUTE FUNCTION readings_refuse_change()`,

  // GxP mode (ADR 0061) and electronic signatures (ADR 0062).
  `ALTER TABLE enterprises ADD COLUMN gxp boolean NOT NULL DEFAULT false`,
  `CREATE TABLE electronic_signatures (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid REFERENCES enterprises(id),
     user_id uuid NOT NULL REFERENCES users(id),
     printed_name text NOT NULL,
     username text NOT NULL,
     meaning text NOT NULL CHECK (meaning IN ('Revisado', 'Aprovado', 'Responsável')),
     signed_at timestamptz NOT NULL,
     record_type text NOT NULL CHECK (record_type IN ('alarm', 'report')),
     record_id uuid NOT NULL,
     record_hash text NOT NULL,
     hash text NOT NULL
   )`,
  `CREATE INDEX electronic_signatures_record_idx ON electronic_signatures (record_type, record_id)`,
  `ALTER TABLE alarms ADD COLUMN ack_signature_id uuid REFERENCES electronic_signatures(id)`,
  `ALTER TABLE reports ADD COLUMN approval_signature_id uuid REFERENCES electronic_signatures(id)`,
  `CREATE TABLE signature_lockouts (
     user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
     failures integer NOT NULL DEFAULT 0,
     locked_until timestamptz
   )`,

  // What is audited (issue 22 point 2): one line per table.
  `SELECT audit_attach('enterprises', 'enterprise', 'id', 'id', '{updated_at,name_key}')`,
  `SELECT audit_attach('enterprise_addresses', 'enterprise_address', 'enterprise_id', 'enterprise_id', '{updated_at}')`,
  `SELECT audit_attach('users', 'user', 'enterprise_id', 'id', '{updated_at}', '{password_hash}', '{name,username,profile_id,enterprise_id}')`,
  `SELECT audit_attach('user_addresses', 'user_address', 'user_id:users', 'user_id', '{updated_at}')`,
  `SELECT audit_attach('notification_channels', 'notification_channel', 'user_id:users', 'user_id')`,
  `SELECT audit_attach('devices', 'device', 'enterprise_id', 'id',
     '{last_sync_at,last_battery,last_temperature,last_humidity,last_lat,last_lng,learned_interval_seconds,updated_at}', '{key}',
     '{name,enterprise_id,temperature_min,temperature_max,humidity_min,humidity_max,out_of_range_minutes,no_data_minutes,report_interval_seconds}')`,
  `SELECT audit_attach('device_users', 'device_user', 'device_id:devices', 'device_id', '{}', '{}', '{*}')`,
  `SELECT audit_attach('gateways', 'gateway', 'enterprise_id', 'id', '{last_seen_at}', '{key_hash}')`,
  `SELECT audit_attach('gateway_devices', 'gateway_device', 'gateway_id:gateways', 'gateway_id')`,
  `SELECT audit_attach('locations', 'location', 'enterprise_id')`,
  `SELECT audit_attach('device_groups', 'device_group', 'location_id:locations')`,
  `SELECT audit_attach('travels', 'travel', 'enterprise_id', 'id',
     '{last_lat,last_lng,updated_at,code_lookups,code_last_lookup_at}', '{code}')`,
  `SELECT audit_attach('travel_devices', 'travel_device', 'travel_id:travels', 'travel_id', '{}', '{}', '{*}')`,
  `SELECT audit_attach('travel_revoked_codes', 'travel_code', 'travel_id:travels', 'travel_id', '{}', '{code}')`,
  `SELECT audit_attach('alarms', 'alarm', 'device_id:devices', 'id',
     '{notified_opened_at,notified_ended_at,reminder_seq,escalated_at,folded,temperature_min,temperature_max,humidity_min,humidity_max}')`,
  `SELECT audit_attach('monitor_links', 'monitor_link', 'enterprise_id', 'id', '{last_used_at,use_count}', '{token_hash}')`,
  `SELECT audit_attach('monitor_link_devices', 'monitor_link_device', 'link_id:monitor_links', 'link_id')`,
  `SELECT audit_attach('monitor_link_travels', 'monitor_link_travel', 'link_id:monitor_links', 'link_id')`,
  `SELECT audit_attach('reports', 'report', 'enterprise_id', 'id', '{updated_at,queue_turn}')`,
  `SELECT audit_attach('electronic_signatures', 'electronic_signature', 'enterprise_id')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
