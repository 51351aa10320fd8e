import { Profile } from '@sentinela/contract';

/**
 * What tenant data a signed-in user may reach. Every repository query of tenant data takes one.
 * - all: the super admin.
 * - enterprise: an enterprise admin, over its enterprise.
 * - user: everyone else, over what is linked to them (devices) inside their enterprise.
 */
export type TenantScope =
  | { kind: 'all' }
  | { kind: 'enterprise'; enterpriseId: string }
  | { kind: 'user'; userId: string; enterpriseId: string | null };

export function scopeFor(user: { id: string; profileId: number; enterpriseId: string | null }): TenantScope {
  if (user.profileId === Profile.SuperAdmin) return { kind: 'all' };
  if (user.profileId === Profile.EnterpriseAdmin && user.enterpriseId) {
    return { kind: 'enterprise', enterpriseId: user.enterpriseId };
  }
  return { kind: 'user', userId: user.id, enterpriseId: user.enterpriseId };
}

/** True when the scope reaches the given enterprise's data at all. */
export function reachesEnterprise(scope: TenantScope, enterpriseId: string): boolean {
  return scope.kind === 'all' || scope.enterpriseId === enterpriseId;
}
