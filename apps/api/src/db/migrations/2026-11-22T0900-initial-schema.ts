import { sql, type Kysely } from 'kysely';

/**
 * The whole product's schema, as of the foundation. Frozen: later changes are new migrations.
 * Statements run one at a time because the embedded database refuses multi-statement queries.
 * Entity ids are uuids (they travel as `_id`); readings, the one big table, refer to devices by
 * a compact integer (`devices.num`) so that its (device, time) key stays 12 bytes.
 */
const statements = [
  `CREATE TABLE profiles (
     id smallint PRIMARY KEY,
     name text NOT NULL
   )`,
  `INSERT INTO profiles (id, name) VALUES
     (1, 'Super administrador'), (2, 'Administrador da empresa'), (3, 'Usuário'),
     (4, 'Cliente operador'), (5, 'Cliente visualizador')`,

  `CREATE TABLE enterprises (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     name text NOT NULL,
     email text,
     disabled boolean NOT NULL DEFAULT false,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,

  `CREATE TABLE users (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     name text NOT NULL,
     username text NOT NULL,
     email text NOT NULL,
     phone text,
     password_hash text NOT NULL,
     profile_id smallint NOT NULL REFERENCES profiles(id),
     enterprise_id uuid REFERENCES enterprises(id),
     is_owner boolean NOT NULL DEFAULT false,
     disabled boolean NOT NULL DEFAULT false,
     verified boolean NOT NULL DEFAULT false,
     telegram_chat_id text,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE UNIQUE INDEX users_username_key ON users (lower(username))`,
  `CREATE UNIQUE INDEX users_email_key ON users (lower(email))`,
  `CREATE INDEX users_enterprise_idx ON users (enterprise_id)`,

  `CREATE TABLE user_addresses (
     user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
     cep text, number text, address text, neighbourhood text, city text, uf text, ibge text,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,

  `CREATE TABLE sessions (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     token_hash bytea NOT NULL UNIQUE,
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     created_at timestamptz NOT NULL,
     expires_at timestamptz NOT NULL,
     revoked_at timestamptz,
     client text, client_version text, client_os text, ip text
   )`,
  `CREATE INDEX sessions_user_idx ON sessions (user_id)`,

  `CREATE TABLE email_verifications (
     token_hash bytea PRIMARY KEY,
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     expires_at timestamptz NOT NULL,
     used_at timestamptz
   )`,
  `CREATE TABLE password_resets (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     code_hash text NOT NULL,
     expires_at timestamptz NOT NULL,
     attempts smallint NOT NULL DEFAULT 0,
     used_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,

  `CREATE TABLE locations (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id),
     name text NOT NULL,
     address text,
     latitude double precision,
     longitude double precision,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX locations_enterprise_idx ON locations (enterprise_id)`,
  `CREATE TABLE device_groups (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     location_id uuid NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
     name text NOT NULL
   )`,

  `CREATE TABLE devices (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     num integer GENERATED ALWAYS AS IDENTITY UNIQUE,
     mac text NOT NULL UNIQUE,
     name text NOT NULL,
     model text,
     key text,
     enterprise_id uuid REFERENCES enterprises(id),
     location_id uuid REFERENCES locations(id) ON DELETE SET NULL,
     group_id uuid REFERENCES device_groups(id) ON DELETE SET NULL,
     temperature_min double precision, temperature_max double precision,
     humidity_min double precision, humidity_max double precision,
     out_of_range_minutes integer NOT NULL DEFAULT 0,
     no_data_minutes integer,
     last_sync_at timestamptz,
     last_battery real, last_temperature real, last_humidity real,
     last_lat double precision, last_lng double precision,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX devices_enterprise_idx ON devices (enterprise_id)`,
  `CREATE TABLE device_users (
     device_id uuid NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (device_id, user_id)
   )`,
  `CREATE INDEX device_users_user_idx ON device_users (user_id)`,

  `CREATE TABLE gateways (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid REFERENCES enterprises(id),
     name text NOT NULL,
     key_hash bytea NOT NULL UNIQUE,
     key_prefix text NOT NULL,
     created_by uuid REFERENCES users(id),
     created_at timestamptz NOT NULL DEFAULT now(),
     revoked_at timestamptz
   )`,
  `CREATE TABLE gateway_devices (
     gateway_id uuid NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
     device_id uuid NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     PRIMARY KEY (gateway_id, device_id)
   )`,

  `CREATE TABLE travels (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid REFERENCES enterprises(id),
     code text NOT NULL UNIQUE,
     status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
     responsible_user_id uuid REFERENCES users(id),
     created_by uuid REFERENCES users(id),
     origin_address text NOT NULL,
     origin_lat double precision, origin_lng double precision,
     destiny_address text NOT NULL,
     destiny_lat double precision, destiny_lng double precision,
     last_lat double precision, last_lng double precision,
     started_at timestamptz, finished_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX travels_enterprise_idx ON travels (enterprise_id, created_at DESC)`,
  `CREATE TABLE travel_devices (
     travel_id uuid NOT NULL REFERENCES travels(id) ON DELETE CASCADE,
     device_id uuid NOT NULL REFERENCES devices(id),
     name text,
     temperature_min double precision, temperature_max double precision,
     humidity_min double precision, humidity_max double precision,
     PRIMARY KEY (travel_id, device_id)
   )`,
  `CREATE INDEX travel_devices_device_idx ON travel_devices (device_id)`,

  // Readings: range-partitioned by month on ts; partitions are created ahead of the rows that need them.
  `CREATE TABLE readings (
     device_num integer NOT NULL,
     ts timestamptz NOT NULL,
     temperature real,
     humidity real,
     battery real,
     lat double precision,
     lng double precision,
     travel_id uuid,
     received_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (device_num, ts)
   ) PARTITION BY RANGE (ts)`,

  `CREATE TABLE alarms (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     device_id uuid NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     travel_id uuid REFERENCES travels(id) ON DELETE SET NULL,
     type text NOT NULL,
     message text NOT NULL,
     started_at timestamptz NOT NULL,
     ended_at timestamptz,
     active boolean NOT NULL DEFAULT true,
     temperature_min real, temperature_max real,
     humidity_min real, humidity_max real,
     acknowledged_at timestamptz,
     acknowledged_by uuid REFERENCES users(id),
     acknowledge_message text,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX alarms_device_idx ON alarms (device_id, started_at DESC)`,
  `CREATE UNIQUE INDEX alarms_one_active_per_type ON alarms (device_id, type) WHERE active`,

  `CREATE TABLE domain_events (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     kind text NOT NULL,
     payload jsonb NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     processed_at timestamptz
   )`,
  `CREATE INDEX domain_events_pending_idx ON domain_events (id) WHERE processed_at IS NULL`,

  `CREATE TABLE device_events (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     device_id uuid NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     type text NOT NULL,
     message text NOT NULL,
     user_id uuid REFERENCES users(id),
     client text, client_version text, client_os text,
     api_version text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX device_events_device_idx ON device_events (device_id, created_at DESC)`,

  `CREATE TABLE access_log (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     created_at timestamptz NOT NULL,
     user_id uuid REFERENCES users(id) ON DELETE SET NULL,
     enterprise_id uuid,
     client text, client_version text, client_os text, ip text,
     api_version text NOT NULL,
     method text NOT NULL,
     path text NOT NULL,
     status_code smallint NOT NULL,
     message text NOT NULL
   )`,
  `CREATE INDEX access_log_user_idx ON access_log (user_id, created_at DESC)`,

  `CREATE TABLE reports (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid REFERENCES enterprises(id),
     user_id uuid REFERENCES users(id),
     device_id uuid REFERENCES devices(id) ON DELETE SET NULL,
     travel_id uuid REFERENCES travels(id) ON DELETE SET NULL,
     kind text NOT NULL,
     type text NOT NULL,
     status smallint NOT NULL DEFAULT 1,
     error text,
     filters jsonb NOT NULL DEFAULT '{}'::jsonb,
     file_path text,
     file_size bigint,
     sha256 text,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX reports_enterprise_idx ON reports (enterprise_id, created_at DESC)`,
  `CREATE INDEX reports_sha256_idx ON reports (sha256)`,

  `CREATE TABLE firmwares (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     version text NOT NULL UNIQUE,
     version_number integer NOT NULL,
     notes text NOT NULL DEFAULT '',
     file_name text NOT NULL,
     file_path text NOT NULL,
     file_size bigint NOT NULL,
     created_by uuid REFERENCES users(id),
     created_at timestamptz NOT NULL DEFAULT now()
   )`,

  `CREATE TABLE plans (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     name text NOT NULL,
     position smallint NOT NULL DEFAULT 0
   )`,
  `CREATE TABLE plan_cycles (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     plan_id uuid NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
     name text NOT NULL,
     value numeric(12, 2) NOT NULL,
     features jsonb NOT NULL DEFAULT '[]'::jsonb
   )`,
  `CREATE TABLE subscriptions (
     enterprise_id uuid PRIMARY KEY REFERENCES enterprises(id),
     plan_cycle_id uuid NOT NULL REFERENCES plan_cycles(id),
     started_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE payment_cards (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id),
     brand text NOT NULL, last4 text NOT NULL, holder text NOT NULL, expiry text NOT NULL,
     is_main boolean NOT NULL DEFAULT false,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE invoices (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id),
     issued_at timestamptz NOT NULL,
     mode text NOT NULL, transaction text, method text NOT NULL,
     value numeric(12, 2) NOT NULL,
     pending boolean NOT NULL DEFAULT true,
     paid_at timestamptz
   )`,

  `CREATE TABLE faq (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     question text NOT NULL,
     answer text NOT NULL,
     position smallint NOT NULL DEFAULT 0
   )`,
  `CREATE TABLE notification_channels (
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     channel text NOT NULL CHECK (channel IN ('push', 'email', 'sms', 'telegram', 'whatsapp')),
     PRIMARY KEY (user_id, channel)
   )`,
  `CREATE TABLE contact_messages (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     name text NOT NULL, email text NOT NULL, phone text NOT NULL, message text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     forwarded_at timestamptz
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
