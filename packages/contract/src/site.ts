import { z } from './zod-locale';

/** A plan of the landing page and /plans (spec 000 §3): cycles named Mensal are monthly, any other name annual. */
export const Plan = z.object({
  _id: z.string(),
  name: z.string(),
  cicle: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      value: z.number(),
      features: z.array(z.object({ name: z.string() })),
    }),
  ),
});
export type Plan = z.infer<typeof Plan>;

export const FaqItem = z.object({ question: z.string(), answer: z.string() });
export type FaqItem = z.infer<typeof FaqItem>;

export const PlanIdParam = z.object({ id: z.uuid('Plano não encontrado.') });

/** The documents' rule: "Mensal" is monthly, every other cycle name annual. */
export const isMonthlyCycle = (name: string) => name === 'Mensal';
