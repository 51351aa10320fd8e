import { Profile } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import type { SessionService } from '../auth/session-service';
import { setEnterpriseDisabled } from '../enterprises/repository';
import { findUserInScope, setUserDisabled } from './repository';

export const ACTIVATION_MESSAGES = {
  deactivated: 'Usuário Desativado com Sucesso!',
  activated: 'Usuário Ativado com Sucesso!',
} as const;

export class UserService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
  ) {}

  /** Spec 001 §4: status true deactivates, false activates; a user or, for the super admin, an enterprise. */
  async setActive(auth: AuthContext, target: { userId?: string; clientId?: string }, deactivate: boolean): Promise<string> {
    const now = this.clock.now();
    if (target.clientId) {
      if (auth.profileId !== Profile.SuperAdmin) throw forbidden();
      if (!(await setEnterpriseDisabled(this.db, target.clientId, deactivate, now))) throw notFound('Empresa não encontrada.');
    } else if (target.userId) {
      if (target.userId === auth.userId) throw badRequest('Você não pode desativar o seu próprio usuário.');
      const user = await findUserInScope(this.db, auth.scope, target.userId);
      if (!user) throw notFound('Usuário não encontrado.');
      await setUserDisabled(this.db, user.id, deactivate, now);
      if (deactivate) await this.sessions.revokeAllOf(user.id);
    }
    return deactivate ? ACTIVATION_MESSAGES.deactivated : ACTIVATION_MESSAGES.activated;
  }
}
