import type { ApiTokenScope } from '@sentinela/contract';

/** A first call a new token can make, by its scopes, the most useful first: what the screen offers to copy. */
const FIRST_CALLS: { scope: ApiTokenScope; call: (origin: string) => string }[] = [
  { scope: 'readings:read', call: (origin) => `"${origin}/api/readings?limit=100"` },
  { scope: 'devices:read', call: (origin) => `${origin}/api/beacon-device/all` },
  { scope: 'alarms:read', call: (origin) => `${origin}/api/alarms/open` },
  { scope: 'travels:read', call: (origin) => `"${origin}/api/travels?paginate=false"` },
  { scope: 'reports:read', call: (origin) => `${origin}/api/reports` },
  {
    scope: 'alarms:write',
    call: (origin) => `-X POST ${origin}/api/alarms/<id do alarme>/acknowledge -H 'Content-Type: application/json' -d '{"message":"Recebido"}'`,
  },
  { scope: 'travels:write', call: (origin) => `-X POST ${origin}/api/travels/<id da viagem>/status -H 'Content-Type: application/json' -d '{"status":1}'` },
];

/** A curl command with the token against this server (the address the administrator is using). */
export function tokenCurlExample(origin: string, token: string, scopes: readonly ApiTokenScope[]): string {
  const first = FIRST_CALLS.find((c) => scopes.includes(c.scope)) ?? FIRST_CALLS[1]!;
  return `curl -sS ${first.call(origin)} \\\n  -H 'Authorization: Bearer ${token}'`;
}

/** The readings of a period as CSV, for tokens that may read readings. */
export function csvCurlExample(origin: string, token: string): string {
  return `curl -sS -OJ "${origin}/api/readings?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z" \\\n  -H 'Authorization: Bearer ${token}' -H 'Accept: text/csv'`;
}
