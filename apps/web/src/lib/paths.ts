/**
 * Client paths of the documents' route table (exact matches). Only the paths this build links to are
 * listed; the router registers the screens that exist.
 */
export const paths = {
  home: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  reportValidator: '/report/validator',
  myDevices: '/my-devices',
  deviceHistory: (mac: string, id: string) => `/device-history/${encodeURIComponent(mac)}/${encodeURIComponent(id)}`,
} as const;

/** Where a signed-in user lands (login, /, and signed-in visits to /login). */
export const SIGNED_IN_HOME = paths.myDevices;
