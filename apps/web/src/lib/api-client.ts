import { CLIENT_NAME, CLIENT_VERSION, MSG } from '@sentinela/contract';
import type { z } from 'zod';
import { detectClientOs } from './client-os';
import { expireSession, touchSession } from './session';

export const NETWORK_ERROR_MESSAGE = 'Não foi possível conectar ao servidor. Verifique sua conexão.';

/** An error answered by the API (`{ statusCode, code, error, issues? }`), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = 'UNKNOWN',
    readonly issues: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /**
   * `session` (default): bearer token of the stored session, sliding its window; a 401 ends it.
   * `none`: no token. `{ token }`: an explicit token, e.g. during sign-in before the session is stored.
   */
  auth?: 'session' | 'none' | { token: string };
  /** Contract schema the answer is parsed with. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
}

let clientOs: string | undefined;

function baseHeaders(): Record<string, string> {
  clientOs ??= detectClientOs();
  return { accept: 'application/json', client: CLIENT_NAME, clientVersion: CLIENT_VERSION, clientOs };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
    const { code, issues } = body as { code?: unknown; issues?: unknown };
    return new ApiError(
      status,
      body.error,
      typeof code === 'string' ? code : undefined,
      Array.isArray(issues) ? (issues as ApiError['issues']) : [],
    );
  }
  return new ApiError(status, MSG.internalError);
}

/** The one way the web client talks to the API: same origin, headers of P4, JSON in and out. */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, auth = 'session', schema, signal } = options;
  const headers = baseHeaders();

  if (auth === 'session') {
    const token = touchSession();
    if (!token) throw new ApiError(401, MSG.sessionExpired, 'SESSION_EXPIRED');
    headers.authorization = `Bearer ${token}`;
  } else if (auth !== 'none') {
    headers.authorization = `Bearer ${auth.token}`;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'NETWORK');
  }

  const payload = await readBody(response);
  if (!response.ok) {
    if (response.status === 401 && auth === 'session') expireSession();
    throw toApiError(response.status, payload);
  }
  return schema ? schema.parse(payload) : (payload as T);
}

/** The message to show for a failed request: the server's text when there is one, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
