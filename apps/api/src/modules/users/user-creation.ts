import { randomBytes } from 'node:crypto';
import {
  CREATE_USER_MESSAGES,
  MSG,
  PROFILE_EXCLUDED_FROM_USER_CREATION,
  PROFILE_NAMES,
  Profile,
  USER_MESSAGES,
  isProfileId,
  type AclListResponse,
  type CreateUserBody,
  type LinkUsersBody,
} from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { reachesEnterprise } from '../../lib/tenant-scope';
import type { AuthContext } from '../../plugins/auth';
import type { EventBus } from '../../realtime/event-bus';
import type { AccountService } from '../accounts/service';
import { hashPassword } from '../auth/service';
import { refuseWeakPassword } from '../auth/password-policy';
import { findEnterprise } from '../enterprises/repository';
import { insertUser, isEmailTaken } from './repository';
import { userToActOn } from './target-user';
import { refuseWhenRestricted } from '../subscriptions/restriction';

/** The profiles an administrator may give (the ACL list less the excluded one). */
const ASSIGNABLE = Object.entries(PROFILE_NAMES)
  .map(([id, name]) => ({ id: Number(id), _id: Number(id), name }))
  .filter((p) => p.id !== PROFILE_EXCLUDED_FROM_USER_CREATION);

/**
 * /register-user (A13): an enterprise's administrator creates a user of that enterprise, who gets an e-mail to
 * choose their own password; then links users to the enterprise as non-owners (POST /api/client/link/{id}).
 * An enterprise administrator reaches only their enterprise; the platform administrator names one.
 */
export class UserCreationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly accounts: AccountService,
  ) {}

  acl(): AclListResponse {
    return { content: ASSIGNABLE };
  }

  async create(auth: AuthContext, body: CreateUserBody): Promise<{ id: string }> {
    const enterpriseId = auth.profileId === Profile.SuperAdmin ? body.client_id : auth.enterpriseId;
    if (!enterpriseId) throw badRequest(CREATE_USER_MESSAGES.enterpriseRequired);
    // Another enterprise's id from an enterprise administrator is an enterprise they cannot see.
    if (body.client_id && !reachesEnterprise(auth.scope, body.client_id)) throw notFound('Empresa não encontrada.');
    const enterprise = await findEnterprise(this.db, enterpriseId);
    if (!enterprise) throw notFound('Empresa não encontrada.');
    // A new user is a new commitment: refused while the subscription is restricted (ADR 32).
    await refuseWhenRestricted(this.db, enterpriseId);
    const profileId = body.profile._id;
    if (!isProfileId(profileId) || profileId === PROFILE_EXCLUDED_FROM_USER_CREATION) throw badRequest(CREATE_USER_MESSAGES.profileNotAllowed);
    const devices = [...new Set(body.available_devices)];
    if (devices.length) {
      const found = await this.db.selectFrom('devices').select('id').where('id', 'in', devices).where('enterprise_id', '=', enterpriseId).execute();
      if (found.length !== devices.length) throw notFound(CREATE_USER_MESSAGES.deviceNotFound);
    }
    if (await isEmailTaken(this.db, body.email)) throw conflict(MSG.emailTaken);
    if (body.password) await refuseWeakPassword(body.password, { username: body.username, email: body.email, enterpriseName: enterprise.name });
    // The administrator's password when one was sent; else nobody knows it, and the user sets theirs with the
    // e-mailed code.
    const passwordHash = await hashPassword(body.password ?? randomBytes(32).toString('base64url'));
    const now = this.clock.now();
    let user: { id: string };
    try {
      user = await this.db.transaction().execute(async (trx) => {
        const created = await insertUser(trx, {
          name: body.name,
          username: body.username,
          email: body.email,
          phone: body.phone,
          password_hash: passwordHash,
          profile_id: profileId,
          enterprise_id: enterpriseId,
          is_owner: false,
          disabled: false,
          verified: false,
          telegram_chat_id: null,
          created_at: now,
          updated_at: now,
        });
        if (devices.length) await trx.insertInto('device_users').values(devices.map((device_id) => ({ device_id, user_id: created.id, created_at: now }))).execute();
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw conflict(MSG.emailTaken);
      if (isUniqueViolation(error, 'users_username_key')) throw conflict(USER_MESSAGES.usernameTaken);
      throw error;
    }
    if (devices.length) this.events.emit('access.changed', { userId: user.id });
    const created = { id: user.id, name: body.name, email: body.email, username: body.username };
    if (body.password) await this.accounts.sendWelcomeWithPassword(created, enterprise.name);
    else await this.accounts.sendWelcome(created, enterprise.name);
    return user;
  }

  /**
   * Links users to the enterprise: each must be a user the caller reaches, of that enterprise or of none. Only the
   * platform administrator makes an owner; an enterprise administrator's links are always non-owner.
   */
  async link(auth: AuthContext, enterpriseId: string, body: LinkUsersBody): Promise<void> {
    if (!reachesEnterprise(auth.scope, enterpriseId) || !(await findEnterprise(this.db, enterpriseId))) throw notFound('Empresa não encontrada.');
    if (body.users.some((u) => u.isOwner) && auth.profileId !== Profile.SuperAdmin) throw forbidden(CREATE_USER_MESSAGES.ownerOnlySuperAdmin);
    const ids = [...new Set(body.users.map((u) => u.id))];
    let query = this.db.selectFrom('users').select(['id', 'enterprise_id', 'profile_id']).where('id', 'in', ids);
    if (auth.scope.kind !== 'all') query = query.where('enterprise_id', '=', enterpriseId);
    const users = await query.execute();
    if (users.length !== ids.length) throw notFound('Usuário não encontrado.');
    if (users.some((u) => u.enterprise_id && u.enterprise_id !== enterpriseId)) throw conflict(CREATE_USER_MESSAGES.otherEnterprise);
    if (users.some((u) => u.profile_id === Profile.SuperAdmin)) throw forbidden();
    // Users already in the enterprise are acted on under the one rule (21.3): a second administrator does not
    // relink the owner or a fellow administrator.
    for (const u of users) if (u.enterprise_id) await userToActOn(this.db, auth, u.id, 'link-enterprise');
    // Linking users is the second half of adding them (/register-user): refused while restricted, like the creation
    // (ADR 32). Checked after the scope, so another enterprise's id is still a 404 that says nothing about its bill.
    await refuseWhenRestricted(this.db, enterpriseId);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      for (const link of body.users) {
        // An enterprise administrator links as non-owner and never demotes the owner: ownership is left as it is.
        const owner = auth.profileId === Profile.SuperAdmin ? { is_owner: link.isOwner } : {};
        await trx.updateTable('users').set({ enterprise_id: enterpriseId, ...owner, updated_at: now }).where('id', '=', link.id).execute();
      }
    });
    for (const id of ids) this.events.emit('access.changed', { userId: id });
  }
}
