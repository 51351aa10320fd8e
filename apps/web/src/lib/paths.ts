/**
 * Client paths of the documents' route table (exact matches). Only the paths this build links to are
 * listed; the router registers the screens that exist.
 */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  confirmation: (token: string) => `/confirmation/${encodeURIComponent(token)}`,
  /** "Não fui eu": the link of an account change notice (ADR 58; not in the documents). */
  protectAccount: (token: string) => `/protect-account/${encodeURIComponent(token)}`,
  reportValidator: '/report/validator',
  profile: '/profile',
  myDevices: '/my-devices',
  deviceHistory: (mac: string, id: string) => `/device-history/${encodeURIComponent(mac)}/${encodeURIComponent(id)}`,
  clientDevices: '/client-devices',
  enterprises: '/enterprises',
  registerEnterprise: '/register-enterprise',
  selectUser: '/select-user',
  enterpriseUsers: '/enterprise-users',
  editUser: '/edit-user',
  addBeacons: '/add-beacons',
  /** The super admin's beacon registry (X1; not in the documents' table). */
  beacons: '/beacons',
  registerUser: '/register-user',
  completeRegister: '/complete-register',
  plans: '/plans',
  directions: '/directions',
  localizator: '/localizator',
  reports: '/reports',
  settings: '/settings',
  locations: '/locations',
  financial: '/financial',
  /** The documents' spelling (spec 000 §2). */
  accessLog: '/acess-log',
  firmware: '/firmware',
  /** Not in the documents: gateway keys for reading ingestion (D5). */
  gateways: '/gateways',
  /** Not in the documents: read-only monitor links for wall displays (ADR 26). */
  monitorLinks: '/monitor-links',
  monitor: (token: string) => `/monitor/${encodeURIComponent(token)}`,
  /** Not in the documents: the super admin's plans and FAQ (ADR 28). */
  plansAdmin: '/admin/plans',
  /** Not in the documents: the audit trail (X11, ADR 0060), filtered by its query (entity, entity_id, actor, from, to). */
  auditTrail: '/audit-trail',
  /** Not in the documents: API tokens and webhooks of an enterprise (X13, ADRs 64–66). */
  integrations: '/integrations',
} as const;

/** A path with its query string; empty and undefined values are left out. */
export function withQuery(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Where a signed-in user lands (login, /, and signed-in visits to /login). */
export const SIGNED_IN_HOME = paths.myDevices;

/**
 * Where to go after signing in: the page that was asked for when the session guard sent the user to /login
 * (navigation state `from`), or the home. Only a path of this site: never `//host` nor an absolute URL.
 */
export function returnPath(state: unknown): string {
  const from = state && typeof state === 'object' && 'from' in state ? state.from : undefined;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\') || from === paths.login) return SIGNED_IN_HOME;
  return from;
}
