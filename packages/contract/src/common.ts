import { z } from './zod-locale';
import { MSG } from './messages';

export const IdParam = z.object({ id: z.uuid({ message: MSG.notFound }) });

export const ErrorResponse = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const OkResponse = z.object({ success: z.literal(true) });

/** Timestamps travel as ISO-8601 strings in UTC. */
export const IsoDate = z.iso.datetime({ offset: true });
