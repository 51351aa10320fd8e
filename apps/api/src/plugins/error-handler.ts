import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AUDIT_TRAIL_MESSAGES, MSG, type ErrorResponse } from '@sentinela/contract';
import { isReasonRequired, refusedValue } from '../lib/db-errors';
import { AppError, ERROR_STATUS, RetryLaterError, type ErrorCode } from '../lib/errors';

/** Fastify's own client errors, by code, in the product's vocabulary. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: MSG.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: MSG.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: MSG.invalidData },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'VALIDATION', message: 'O corpo da requisição está vazio.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION', message: MSG.invalidJson },
};

function send(reply: FastifyReply, code: ErrorCode, message: string, issues?: ErrorResponse['issues']) {
  const statusCode = ERROR_STATUS[code];
  const body: ErrorResponse = { statusCode, code, error: message, ...(issues ? { issues } : {}) };
  return reply.status(statusCode).send(body);
}

/** One handler for every error: known errors keep their pt-BR message, anything else is a hidden 500. */
async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RetryLaterError) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof AppError) return send(reply, error.code, error.message);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? MSG.invalidData,
      }));
      // `error` is read by people (screens show it as it comes): the first message alone, in pt-BR; the contract's
      // messages name their field ("Informe o motivo."). Which field, by its wire name, is for programs: `issues`.
      return send(reply, 'VALIDATION', issues[0]?.message ?? MSG.invalidData, issues);
    }

    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return send(reply, known.code, known.message);
    if (error instanceof SyntaxError) return send(reply, 'VALIDATION', MSG.invalidJson);
    if (error.statusCode === 429) return send(reply, 'TOO_MANY_REQUESTS', error.message || MSG.tooManyRequests);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, error.statusCode === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', MSG.invalidData);
    }

    // Last line of defence: a value the database refused is the client's mistake (400), but one that a request
    // schema should have caught; logged as an error so the schema gets fixed. The query's parameters stay out
    // of the log (PGlite attaches them to the error).
    // GxP mode: the audit trigger refused a change that needs a reason (ADR 0061).
    if (isReasonRequired(error)) return send(reply, 'VALIDATION', AUDIT_TRAIL_MESSAGES.reasonRequired);

    const refused = refusedValue(error);
    if (refused) {
      const e = error as unknown as { code: string; message: string; table?: string; column?: string; constraint?: string; stack?: string };
      request.log.error(
        { defect: 'value reached the database unchecked', sqlState: e.code, dbMessage: e.message, table: e.table, column: e.column, constraint: e.constraint, route: request.routeOptions.url, stack: e.stack },
        'database refused a request value: a request schema lets it through',
      );
      return send(reply, 'VALIDATION', refused === 'data' ? MSG.valueNotStorable : MSG.referenceNotFound);
    }

    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 'INTERNAL', MSG.internalError);
  });
}

/**
 * Errors Fastify answers before any route runs (its `frameworkErrors` option): a path that is not valid
 * percent-encoded UTF-8, or a parameter longer than any id (100 characters), which names nothing that exists.
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 'NOT_FOUND', MSG.notFound);
  if (error.code === 'FST_ERR_BAD_URL') return send(reply, 'BAD_REQUEST', MSG.invalidUrl);
  return send(reply, 'INTERNAL', MSG.internalError);
}

export function sendRouteNotFound(reply: FastifyReply) {
  return send(reply, 'NOT_FOUND', MSG.routeNotFound);
}

export default fp(errorHandler, { name: 'error-handler' });
