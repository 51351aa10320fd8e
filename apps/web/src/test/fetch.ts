import type { SubscriptionStanding } from '@sentinela/contract';
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function errorResponse(status: number, error: string, code = 'ERROR'): Response {
  return jsonResponse({ statusCode: status, code, error }, status);
}

/**
 * What the signed-in shell asks on every screen besides the screen's own requests (ADR 39): the subscription's
 * standing for the overdue/restricted banner. Answered by the fake server unless a test serves it itself.
 */
export const SHELL_REQUESTS = { standing: '/api/subscription/standing' } as const;

/** An enterprise that owes nothing: no banner. */
export const GOOD_STANDING: SubscriptionStanding = { status: 'active', restricted_at: null, restricts_at: null, overdue_invoice: null };

const isShellRequest = (request: RecordedRequest) => request.method === 'GET' && request.url === SHELL_REQUESTS.standing;

/** The requests a screen made itself, leaving out the shell's (ADR 39): what a screen's test asserts. */
export function screenRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => !isShellRequest(request));
}

/**
 * Replaces `fetch` at the network boundary (component tests only): each call is recorded and answered by `handler`;
 * the shell's requests are answered with GOOD_STANDING unless `shell: false` hands them to `handler` too.
 */
export function mockFetch(handler: Handler, { shell = true }: { shell?: boolean } = {}) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url: String(input),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    if (shell && isShellRequest(request)) return jsonResponse(GOOD_STANDING);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}
