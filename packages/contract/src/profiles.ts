/**
 * Profiles (roles) by fixed id, and the one table of what each may do (P8).
 * The server checks every route against this table; the web client derives its menus from it.
 */
export const Profile = {
  SuperAdmin: 1,
  EnterpriseAdmin: 2,
  User: 3,
  ClientOperator: 4,
  ClientViewer: 5,
} as const;
export type ProfileId = (typeof Profile)[keyof typeof Profile];

export const PROFILE_NAMES: Record<ProfileId, string> = {
  1: 'Super administrador',
  2: 'Administrador da empresa',
  3: 'Usuário',
  4: 'Cliente operador',
  5: 'Cliente visualizador',
};

export const ALL_PROFILES: readonly ProfileId[] = [1, 2, 3, 4, 5];

/** The profile never offered when an enterprise user creates another user (spec 000 §5). */
export const PROFILE_EXCLUDED_FROM_USER_CREATION: ProfileId = Profile.SuperAdmin;

export function isProfileId(value: number): value is ProfileId {
  return (ALL_PROFILES as readonly number[]).includes(value);
}

const everyone = ALL_PROFILES;
const notClients = [Profile.SuperAdmin, Profile.EnterpriseAdmin, Profile.User] as const;
const admins = [Profile.SuperAdmin, Profile.EnterpriseAdmin] as const;
const superAdminOnly = [Profile.SuperAdmin] as const;

export const PERMISSIONS = {
  'profile:own': everyone,
  'settings:own': everyone,
  'devices:read': everyone,
  'devices:rename': notClients,
  'devices:configure': notClients,
  'client-devices:read': notClients,
  'devices:link': admins,
  /** Register beacons, import them, see MACs discovered by gateways (X1). */
  'devices:register': superAdminOnly,
  /** A device's readings (D3 history and charts, the readings export of X13). */
  'readings:read': everyone,
  /** A device's alarms, the open alarms, their delivery log. */
  'alarms:read': everyone,
  'alarms:acknowledge': everyone,
  'travels:read': everyone,
  'travels:manage': notClients,
  'reports:read': everyone,
  'reports:generate': [Profile.SuperAdmin, Profile.EnterpriseAdmin, Profile.User, Profile.ClientOperator],
  'locations:read': everyone,
  'locations:manage': admins,
  'financial:read': admins,
  /** Mark an invoice paid by hand, with a reason (ADR 27). */
  'financial:manage': superAdminOnly,
  /** Add, remove and choose the main one of the enterprise's payment cards (ADR 31). */
  'financial:cards': admins,
  'users:read': admins,
  'users:manage': admins,
  'access-log:read': admins,
  'gateways:manage': admins,
  /** Read-only monitor links for wall displays (ADR 26). */
  'monitor-links:manage': admins,
  // The enterprise's own address and plan (/complete-register, /plans): its administrators.
  'enterprise:settings': admins,
  'enterprises:manage': superAdminOnly,
  /** Read and verify the audit trail, export it (X11, ADR 0060): an enterprise's admins theirs, the super admin all. */
  'audit-trail:read': admins,
  /** Turn GxP mode on or off (X11, ADR 0061). */
  'enterprise:compliance': admins,
  'firmware:manage': superAdminOnly,
  /** Calibration certificates of the enterprise's sensors: add, list, download, the due list (X12, ADR 0077). */
  'calibrations:manage': admins,
  /** Thermal mapping studies of the enterprise's spaces, and their reports (X12, ADR 0083). */
  'mapping-studies:manage': admins,
  /** Plans with their cycles and device limits, and the landing page's FAQ (ADR 28). */
  'plans:manage': superAdminOnly,
  /** The enterprise's API tokens and webhooks (X13, ADR 64): its administrators; the super admin has no enterprise. */
  'integrations:manage': [Profile.EnterpriseAdmin],
} as const satisfies Record<string, readonly ProfileId[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(profileId: number, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly number[]).includes(profileId);
}

/** Who a user is, as far as deciding whether another user may act on them goes. */
export interface UserStanding {
  id: string;
  profileId: number;
  enterpriseId: string | null;
  isOwner: boolean;
}

/**
 * What one user does to another from the administration screens. `self` says whether the action may target the
 * actor: nobody edits, resets or (de)activates themselves there (their own profile asks for their password), but
 * an administrator may link devices to themselves, which grants nothing they do not already see.
 */
export const USER_ACTIONS = {
  /** Name, username and e-mail (/edit-user, M5). */
  edit: { self: false },
  /** A new password set by an administrator (M4). */
  'reset-password': { self: false },
  /** Ativar / Desativar (M4). */
  'set-active': { self: false },
  /** The user's device links (/add-beacons, M6). */
  'link-devices': { self: true },
  /** Linking a user to the enterprise (/register-user, A13). */
  'link-enterprise': { self: true },
} as const satisfies Record<string, { self: boolean }>;
export type UserAction = keyof typeof USER_ACTIONS;

/** Why an action on a user is refused; null when it is allowed. */
export type UserActionRefusal = 'self' | 'other-enterprise' | 'super-admin' | 'owner' | 'administrator' | 'not-administrator';

/**
 * The one rule of who acts on whom (issue 21.3), used by every route that changes a user and by the screens that
 * offer those actions:
 * - the super administrator acts on every enterprise user (never on another super administrator);
 * - an enterprise's owner acts on every other user of its enterprise, administrators included;
 * - any other enterprise administrator acts only on the users below them: never on the owner, never on another
 *   administrator (a second administrator made by the owner cannot take the enterprise from them);
 * - nobody acts on users of another enterprise, nor on themselves where the action says so.
 * The last active administrator of an enterprise is protected apart (it needs a count: see the server).
 */
export function userActionRefusal(actor: UserStanding, target: UserStanding, action: UserAction): UserActionRefusal | null {
  if (actor.id === target.id) return USER_ACTIONS[action].self ? null : 'self';
  if (target.profileId === Profile.SuperAdmin) return 'super-admin';
  if (actor.profileId === Profile.SuperAdmin) return null;
  if (actor.profileId !== Profile.EnterpriseAdmin || !actor.enterpriseId) return 'not-administrator';
  // A user of no enterprise yet is about to be linked into the administrator's (A13): below them by definition.
  if (target.enterpriseId !== null && target.enterpriseId !== actor.enterpriseId) return 'other-enterprise';
  if (actor.isOwner) return null;
  if (target.isOwner) return 'owner';
  if (target.profileId === Profile.EnterpriseAdmin) return 'administrator';
  return null;
}
