import { passwordStrengthProblem, type PasswordContext } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/errors';

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * The common-password list of @zxcvbn-ts/language-common (about 49,000 passwords from public breaches, compressed in
 * the package: no network), unpacked once per process on first use rather than at start-up.
 */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
  return commonPasswords;
}

/**
 * Every place a password is chosen (sign-up, recovery, change, admin reset, company registration, user creation)
 * asks here after the documents' rule: a common password, however dressed up, and one holding the user's own
 * username, e-mail or enterprise name are refused with a 400 and a pt-BR message.
 */
export async function refuseWeakPassword(password: string, context: PasswordContext): Promise<void> {
  const common = await loadCommonPasswords();
  const problem = passwordStrengthProblem(password, context, (candidate) => common.has(candidate));
  if (problem) throw new AppError('VALIDATION', problem);
}

/** What an existing user is known by, for `refuseWeakPassword`. */
export async function passwordContextOf(db: Db, userId: string): Promise<PasswordContext> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('enterprises as e', 'e.id', 'u.enterprise_id')
    .select(['u.username', 'u.email', 'e.name as enterpriseName'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return row ?? {};
}
