import { Profile, USER_ACTION_MESSAGES, standingOf, userActionRefusal, type UserAction, type UserActionRefusal, type UserDetail } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import { findUserInScope } from './repository';

function refusalError(refusal: UserActionRefusal, action: UserAction): AppError {
  switch (refusal) {
    case 'other-enterprise':
      // Another enterprise's user is as unknown as one that does not exist.
      return notFound(USER_ACTION_MESSAGES.notFound);
    case 'self':
      return badRequest(USER_ACTION_MESSAGES.self[action] ?? 'Use a tela Perfil para alterar os seus próprios dados.');
    case 'super-admin':
      return forbidden(USER_ACTION_MESSAGES.superAdmin);
    case 'owner':
      return forbidden(USER_ACTION_MESSAGES.owner);
    case 'administrator':
      return forbidden(USER_ACTION_MESSAGES.administrator);
    case 'not-administrator':
      return forbidden(USER_ACTION_MESSAGES.notAdministrator);
  }
}

/**
 * The user an administrator is about to act on, or the refusal: the target must be in the caller's scope (404
 * otherwise) and the contract's one rule (`userActionRefusal`) must allow the action. Every service that changes
 * a user from the administration screens starts here, so the rule is applied the same way everywhere.
 */
export async function userToActOn(db: Db, auth: AuthContext, userId: string, action: UserAction): Promise<UserDetail> {
  const target = await findUserInScope(db, auth.scope, userId);
  if (!target) throw notFound(USER_ACTION_MESSAGES.notFound);
  const actor = await db.selectFrom('users').select(['id', 'profile_id', 'enterprise_id', 'is_owner']).where('id', '=', auth.userId).executeTakeFirstOrThrow();
  const refusal = userActionRefusal(
    { id: actor.id, profileId: actor.profile_id, enterpriseId: actor.enterprise_id, isOwner: actor.is_owner },
    standingOf(target),
    action,
  );
  if (refusal) throw refusalError(refusal, action);
  return target;
}

/**
 * Throws when deactivating `target` would leave its enterprise without an active administrator. Run inside the
 * deactivating transaction after locking the enterprise row, so two deactivations at once cannot both pass.
 */
export async function refuseLastActiveAdministrator(trx: Db, target: UserDetail): Promise<void> {
  const enterpriseId = target.enterprise?._id;
  if (!enterpriseId || target.disabled || target.profile._id !== Profile.EnterpriseAdmin) return;
  await trx.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).forUpdate().executeTakeFirst();
  const others = await trx
    .selectFrom('users')
    .select('id')
    .where('enterprise_id', '=', enterpriseId)
    .where('profile_id', '=', Profile.EnterpriseAdmin)
    .where('disabled', '=', false)
    .where('id', '<>', target.id)
    .limit(1)
    .executeTakeFirst();
  if (!others) throw new AppError('CONFLICT', USER_ACTION_MESSAGES.lastActiveAdministrator);
}
