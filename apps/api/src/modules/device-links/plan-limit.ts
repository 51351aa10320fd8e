import { deviceLimitMessage } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { conflict } from '../../lib/errors';

/**
 * Locks the enterprise's row until the transaction ends, so that two link calls into one enterprise take turns and
 * the count below cannot be raced past the plan's limit (ADR 28). Taken before any device is locked.
 */
export async function lockEnterpriseForLinking(trx: Db, enterpriseId: string): Promise<void> {
  await trx.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).forUpdate().execute();
}

/**
 * The device limit of the enterprise's current plan (subscription → cycle → plan): a call that adds devices and would
 * leave the enterprise above the limit is refused, naming the plan. Removing is always allowed (an enterprise that
 * moved to a smaller plan can come down to its limit), and an enterprise without a plan or with an unlimited plan
 * has no limit. Call inside the transaction that holds lockEnterpriseForLinking.
 */
export async function checkDeviceLimit(trx: Db, enterpriseId: string, adding: number, removing: number): Promise<void> {
  if (adding === 0) return;
  const plan = await trx
    .selectFrom('subscriptions as s')
    .innerJoin('plan_cycles as c', 'c.id', 's.plan_cycle_id')
    .innerJoin('plans as p', 'p.id', 'c.plan_id')
    .select(['p.name', 'p.max_devices'])
    .where('s.enterprise_id', '=', enterpriseId)
    .executeTakeFirst();
  if (!plan || plan.max_devices === null) return;
  const row = await trx.selectFrom('devices').select((eb) => eb.fn.countAll<string>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow();
  const current = Number(row.n);
  const after = current - removing + adding;
  if (after > plan.max_devices) throw conflict(deviceLimitMessage(plan.name, plan.max_devices, current, after));
}
