import { sql, type Kysely } from 'kysely';

/**
 * Calibration certificates per sensor (X12, issue 24 point 1, ADR 0077).
 *
 * - `calibrations`: one row per certificate, never changed nor deleted (a correction is a newer certificate: the one
 *   in force is the device's latest calibration). Dates are calendar days as the certificate prints them. The PDF lives
 *   under CALIBRATIONS_DIR (`file_path` relative to it) with its SHA-256. Audited: its chain is the device's enterprise.
 * - `calibration_notices`: each announcement of a certificate becoming due or overdue, per administrator and channel,
 *   recorded before it is sent; the unique key makes it once, whatever the runs or servers.
 */
const statements = [
  `CREATE TABLE calibrations (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     device_id uuid NOT NULL REFERENCES devices(id),
     calibrated_at date NOT NULL,
     due_at date NOT NULL,
     laboratory text NOT NULL,
     certificate_number text NOT NULL,
     points jsonb NOT NULL DEFAULT '[]',
     file_name text NOT NULL,
     file_path text NOT NULL,
     file_size integer NOT NULL CHECK (file_size > 0),
     sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
     created_by uuid REFERENCES users(id),
     created_at timestamptz NOT NULL,
     CHECK (due_at > calibrated_at)
   )`,
  `CREATE UNIQUE INDEX calibrations_certificate_idx ON calibrations (device_id, laboratory, certificate_number)`,
  // The certificate in force of a device: its latest calibration.
  `CREATE INDEX calibrations_device_idx ON calibrations (device_id, calibrated_at DESC, created_at DESC)`,
  `CREATE TABLE calibration_notices (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     calibration_id uuid NOT NULL REFERENCES calibrations(id),
     state text NOT NULL CHECK (state IN ('due', 'overdue')),
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     channel text NOT NULL,
     recipient text NOT NULL,
     status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
     attempts integer NOT NULL DEFAULT 0,
     last_error text,
     created_at timestamptz NOT NULL,
     sent_at timestamptz,
     UNIQUE (calibration_id, state, user_id, channel)
   )`,
  `SELECT audit_attach('calibrations', 'calibration', 'device_id:devices')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
