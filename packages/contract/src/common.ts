import { z } from './zod-locale';
import { MSG } from './messages';
import { boundedInt } from './values';

export const IdParam = z.object({ id: z.uuid({ message: MSG.notFound }) });

export const ErrorResponse = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const OkResponse = z.object({ success: z.literal(true) });

/** Page numbers of paged lists: bounded, so that (page - 1) × limit is an OFFSET the database takes. */
export const MAX_PAGE = 1_000_000;
export const pageNumber = () => boundedInt('Página', 1, MAX_PAGE, { coerce: true }).default(1);

/** Timestamps travel as ISO-8601 strings in UTC. */
export const IsoDate = z.iso.datetime({ offset: true });
