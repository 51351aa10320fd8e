import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from '@sentinela/contract';

/**
 * Building blocks for routes whose request or answer is not JSON checked by a schema, so that they are still
 * described in the OpenAPI document (ADR 34) instead of showing up there as an undocumented "Default Response".
 */

/** Bytes sent as they are (a stream or a buffer, never serialised): any value for the handler, binary in the document. */
const binary = () => z.unknown().meta({ type: 'string', format: 'binary' });

/** A file answered as it is: the document says its media types. */
export function fileResponse(description: string, ...mediaTypes: [string, ...string[]]) {
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: binary() }])) };
}

/** A multipart form with one file in the field `file` (or `fileField`) plus the named text fields, as the upload routes read it. */
export function multipartFileBody(fields: Record<string, z.ZodType> = {}, fileField = 'file') {
  return z.object({ [fileField]: binary().meta({ description: 'O arquivo enviado.' }), ...fields });
}

/**
 * For routes that read their body themselves (multipart uploads read part by part; ingestion checks each reading
 * on its own so that one bad reading does not reject the batch): the body schema describes the request in the
 * document, and only params, query and headers are validated by the route's zod schemas.
 */
export const bodyReadByHandler = (route: FastifyRouteSchemaDef<unknown>) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as FastifyRouteSchemaDef<z.ZodType>);
