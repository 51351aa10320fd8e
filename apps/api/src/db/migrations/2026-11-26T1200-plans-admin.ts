import { sql, type Kysely } from 'kysely';

/**
 * Plans and FAQ administered by the super admin (issue 13, item 1; ADR 28).
 * - plans.max_devices: how many devices an enterprise on the plan may have (NULL: no limit).
 * - plans.retired_at: a retired plan is no longer offered (landing page, /plans, sign-up) but keeps its subscribers.
 * - one cycle of each name per plan (Mensal, Anual), so that an edit can match cycles by name.
 * - plan names are unique (ignoring case): the device-limit refusal names the plan, and two "Básico" would mislead.
 */
const statements = [
  `ALTER TABLE plans ADD COLUMN max_devices integer CHECK (max_devices IS NULL OR max_devices > 0)`,
  `ALTER TABLE plans ADD COLUMN retired_at timestamptz`,
  `CREATE UNIQUE INDEX plan_cycles_plan_name_idx ON plan_cycles (plan_id, name)`,
  `CREATE UNIQUE INDEX plans_name_idx ON plans (lower(name))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
