import { ENTERPRISE_MESSAGES, MSG, Profile, type CreateEnterpriseBody, type CreateEnterpriseResponse } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict } from '../../lib/errors';
import { hashPassword } from '../auth/service';
import { refuseWeakPassword } from '../auth/password-policy';
import { insertUser, isEmailTaken, usernamesStartingWith } from '../users/repository';
import { insertEnterprise } from './repository';

export const ADMIN_USERNAME_SUFFIX = '.adm';
const MAX_BASE_LENGTH = 40;
const MAX_ATTEMPTS = 3;

/**
 * The first word of a company name, lower case, without accents and keeping only letters and digits
 * ("Açaí Norte Ltda" → "acai"). A name with no usable word gives "empresa".
 */
export function adminUsernameBase(companyName: string): string {
  const words = companyName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);
  return (words[0] ?? 'empresa').slice(0, MAX_BASE_LENGTH);
}

/** `{base}.adm`, or `{base}.adm2`, `{base}.adm3`… when taken (M3: usernames are unique). */
export function firstFreeAdminUsername(base: string, taken: ReadonlySet<string>): string {
  const first = `${base}${ADMIN_USERNAME_SUFFIX}`;
  if (!taken.has(first)) return first;
  for (let n = 2; ; n++) if (!taken.has(`${first}${n}`)) return `${first}${n}`;
}

export class EnterpriseService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Company registration (M3): the enterprise and its owner, an enabled and verified enterprise admin whose
   * username and name are derived here from the company name. Nothing the client says about the user's
   * profile, name or username is used.
   */
  async create(body: CreateEnterpriseBody): Promise<CreateEnterpriseResponse> {
    const { name } = body.client;
    const { email, password } = body.user;
    if (await isEmailTaken(this.db, email)) throw conflict(MSG.emailTaken);
    const base = adminUsernameBase(name);
    await refuseWeakPassword(password, { username: `${base}${ADMIN_USERNAME_SUFFIX}`, email, enterpriseName: name });
    const passwordHash = await hashPassword(password);

    // Two registrations may race for one username or email: the unique indexes decide; a lost username is retried.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          if (await isEmailTaken(trx, email)) throw conflict(MSG.emailTaken);
          const username = firstFreeAdminUsername(base, await usernamesStartingWith(trx, `${base}${ADMIN_USERNAME_SUFFIX}`));
          const now = this.clock.now();
          const enterprise = await insertEnterprise(trx, { name, email, now });
          const user = await insertUser(trx, {
            name: username,
            username,
            email,
            phone: null,
            password_hash: passwordHash,
            profile_id: Profile.EnterpriseAdmin,
            enterprise_id: enterprise.id,
            is_owner: true,
            disabled: false,
            verified: true,
            telegram_chat_id: null,
            created_at: now,
            updated_at: now,
          });
          return { client: { _id: enterprise.id, name: enterprise.name }, user: { _id: user.id, username: user.username } };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_key')) throw conflict(MSG.emailTaken);
        // Names are unique whatever their case and accents (ADR 18): the database's folded key decides.
        if (isUniqueViolation(error, 'enterprises_name_key_idx')) throw conflict(ENTERPRISE_MESSAGES.nameTaken);
        if (attempt < MAX_ATTEMPTS && isUniqueViolation(error, 'users_username_key')) continue;
        throw error;
      }
    }
  }
}
