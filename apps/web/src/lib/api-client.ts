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

export interface FetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /**
   * `session` (default): bearer token of the stored session, sliding its window; a 401 ends it.
   * `none`: no token. `{ token }`: an explicit token, e.g. during sign-in before the session is stored.
   */
  auth?: 'session' | 'none' | { token: string };
  signal?: AbortSignal;
  /** What the answer is expected to be (a file route answers its own type; errors still come as JSON). */
  accept?: string;
}

export interface RequestOptions<T> extends FetchOptions {
  /**
   * Contract schema the answer is parsed with, or a loader of it: a call made on a screen's first render loads its
   * schema (and zod with it) beside the request instead of before the first paint (ADR 0048).
   */
  schema?: z.ZodType<T> | (() => Promise<z.ZodType<T>>);
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

/** Headers of P4 plus the bearer token of `auth`; null when the session's window has already closed. */
function requestHeaders(auth: FetchOptions['auth'] = 'session', accept?: string): Record<string, string> | null {
  const headers = baseHeaders();
  if (accept) headers.accept = accept;
  if (auth === 'session') {
    const token = touchSession();
    if (!token) return null;
    headers.authorization = `Bearer ${token}`;
  } else if (auth !== 'none') {
    headers.authorization = `Bearer ${auth.token}`;
  }
  return headers;
}

function failure(status: number, payload: unknown, auth: FetchOptions['auth'] = 'session'): ApiError {
  if (status === 401 && auth === 'session') expireSession();
  return toApiError(status, payload);
}

/**
 * The one way the web client talks to the API: same origin, headers of P4, the session's token. Answers the
 * response of a successful call (for files, whose body the caller streams); an unsuccessful one throws ApiError.
 */
export async function apiFetch(path: string, options: FetchOptions = {}): Promise<Response> {
  const { method = 'GET', body, auth = 'session', signal, accept } = options;
  const headers = requestHeaders(auth, accept);
  if (!headers) throw new ApiError(401, MSG.sessionExpired, 'SESSION_EXPIRED');
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
  if (!response.ok) throw failure(response.status, await readBody(response), auth);
  return response;
}

/** A JSON call: apiFetch, with the answer parsed by the contract schema. */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { schema, ...fetchOptions } = options;
  const [payload, parser] = await Promise.all([apiFetch(path, fetchOptions).then(readBody), typeof schema === 'function' ? schema() : schema]);
  return parser ? parser.parse(payload) : (payload as T);
}

export interface UploadOptions<T> extends Pick<RequestOptions<T>, 'auth' | 'signal'> {
  /** Contract schema the answer is parsed with (uploads start from a screen already loaded, with its schemas). */
  schema?: z.ZodType<T>;
  /** Share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Text fields sent before the file (the server can judge them before the file arrives). */
  fields?: Record<string, string>;
  /** The multipart field that carries the file (default `file`). */
  fileField?: string;
}

/**
 * Sends one file as multipart field `file` or `fileField` (spec 001 §7 uploads), reporting upload progress. fetch cannot report
 * how much of a request body has been sent, XMLHttpRequest can; headers, token and errors are those of apiFetch.
 */
export function apiUpload<T = unknown>(path: string, file: Blob, options: UploadOptions<T> = {}): Promise<T> {
  const { auth = 'session', schema, signal, onProgress, fields = {}, fileField = 'file' } = options;
  return new Promise<T>((resolve, reject) => {
    const headers = requestHeaders(auth);
    if (!headers) return reject(new ApiError(401, MSG.sessionExpired, 'SESSION_EXPIRED'));
    if (signal?.aborted) return reject(signal.reason);

    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        payload = undefined;
      }
      if (xhr.status < 200 || xhr.status >= 300) return reject(failure(xhr.status, payload, auth));
      onProgress?.(1);
      try {
        resolve(schema ? schema.parse(payload) : (payload as T));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE, 'NETWORK'));
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(fileField, file, file instanceof File ? file.name : 'file');
    xhr.send(form);
  });
}

/** The message to show for a failed request: the server's text when there is one, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
