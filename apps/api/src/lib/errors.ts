import { MSG } from '@sentinela/contract';

/** The one error vocabulary of the API: a code, its HTTP status, and the pt-BR message users read. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  /** A restricted subscription refuses new commitments until the overdue invoice is paid (ADR 32). */
  PAYMENT_REQUIRED: 402,
  SESSION_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}

/** A limit answer: 429 (or 503) with the seconds after which trying again makes sense. */
export class RetryLaterError extends AppError {
  constructor(
    code: 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE',
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

export const notFound = (message: string = MSG.notFound) => new AppError('NOT_FOUND', message);
export const forbidden = (message: string = MSG.forbidden) => new AppError('FORBIDDEN', message);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const gone = (message: string) => new AppError('GONE', message);
