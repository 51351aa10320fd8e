import { formatBrlInput, PlanBody, z, type AdminPlan } from '@sentinela/contract';

/** What the plan form holds: text as typed (prices as typed in Brazil, "1.234,56"; one feature per line). */
export const PlanFormValues = z.object({
  name: z.string(),
  max_devices: z.string(),
  features: z.string(),
  monthly: z.boolean(),
  monthlyValue: z.string(),
  annual: z.boolean(),
  annualValue: z.string(),
});
export type PlanFormValues = z.infer<typeof PlanFormValues>;

export const emptyPlanForm: PlanFormValues = { name: '', max_devices: '', features: '', monthly: true, monthlyValue: '', annual: true, annualValue: '' };

/** "1.529,00" for a value in centavos: how the price field shows it (read back by the contract's money parser). */
const centsText = formatBrlInput;

export function planToForm(plan: AdminPlan): PlanFormValues {
  const monthly = plan.cicle.find((c) => c.name === 'Mensal');
  const annual = plan.cicle.find((c) => c.name === 'Anual');
  return {
    name: plan.name,
    max_devices: plan.max_devices === null ? '' : String(plan.max_devices),
    features: plan.features.join('\n'),
    monthly: !!monthly,
    monthlyValue: monthly ? centsText(monthly.value_cents) : '',
    annual: !!annual,
    annualValue: annual ? centsText(annual.value_cents) : '',
  };
}

/** The request body of the form's values; the server checks it again with the same schema. */
export function formToBody(values: PlanFormValues): PlanBody {
  const limit = values.max_devices.trim();
  return {
    name: values.name,
    // A typed limit goes as a number only when it is one; anything else goes as typed, for the schema's message.
    max_devices: limit === '' ? null : /^\d+$/.test(limit) ? Number(limit) : (limit as unknown as number),
    features: values.features
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    cycles: [
      ...(values.monthly ? [{ name: 'Mensal' as const, value: values.monthlyValue.trim() }] : []),
      ...(values.annual ? [{ name: 'Anual' as const, value: values.annualValue.trim() }] : []),
    ],
  };
}

/** Which form field shows an issue of the request body's schema. */
function fieldOf(path: readonly PropertyKey[], body: PlanBody): keyof PlanFormValues {
  const [head, index] = path;
  if (head === 'name' || head === 'max_devices' || head === 'features') return head;
  if (head === 'cycles' && typeof index === 'number') return body.cycles[index]?.name === 'Anual' ? 'annualValue' : 'monthlyValue';
  return 'monthly';
}

/** The form's schema: the contract's PlanBody, its messages shown on the field they are about. */
export const PlanFormSchema = PlanFormValues.superRefine((values, ctx) => {
  const body = formToBody(values);
  const parsed = PlanBody.safeParse(body);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [fieldOf(issue.path, body)], message: issue.message });
});
