import { SimpleGrid } from '@mantine/core';
import { measureInput, type z } from '@sentinela/contract';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { NumberField } from './NumberField';

/**
 * Temperature and humidity limits in a form (device configuration, a device within a travel): the same fields,
 * parsing and rules everywhere, matching the server's.
 */

/** Each limit as the server reads it (empty means none, null): a number within the measure's physical bounds. */
export const limitsShape = {
  temperatureMin: measureInput('temperature', 'Temperatura mínima'),
  temperatureMax: measureInput('temperature', 'Temperatura máxima'),
  humidityMin: measureInput('humidity', 'Umidade mínima'),
  humidityMax: measureInput('humidity', 'Umidade máxima'),
};

type LimitsOutput = { temperatureMin: number | null; temperatureMax: number | null; humidityMin: number | null; humidityMax: number | null };
/** What a limit field holds: a number, the text typed so far, or nothing. */
type LimitValue = z.input<ReturnType<typeof measureInput>>;
export type LimitsInput = { temperatureMin: LimitValue; temperatureMax: LimitValue; humidityMin: LimitValue; humidityMax: LimitValue };

/** The server's rule, checked before the round trip: a minimum below its maximum. */
export function refineLimits(form: LimitsOutput, ctx: z.RefinementCtx): void {
  if (form.temperatureMin !== null && form.temperatureMax !== null && form.temperatureMin >= form.temperatureMax) {
    ctx.addIssue({ code: 'custom', path: ['temperatureMax'], message: 'A temperatura mínima deve ser menor que a máxima.' });
  }
  if (form.humidityMin !== null && form.humidityMax !== null && form.humidityMin >= form.humidityMax) {
    ctx.addIssue({ code: 'custom', path: ['humidityMax'], message: 'A umidade mínima deve ser menor que a máxima.' });
  }
}

type Range = { min?: number | null; max?: number | null };

/** The form's starting values from a stored configuration (no limit: an empty field). */
export function limitsDefaults(config: { temperature: Range; humidity: Range }): LimitsInput {
  const value = (number: number | null | undefined) => (number === null || number === undefined ? '' : number);
  return {
    temperatureMin: value(config.temperature.min),
    temperatureMax: value(config.temperature.max),
    humidityMin: value(config.humidity.min),
    humidityMax: value(config.humidity.max),
  };
}

/** The limits as the API takes them. */
export function limitsBody(form: LimitsOutput) {
  return {
    temperature: { min: form.temperatureMin, max: form.temperatureMax },
    humidity: { min: form.humidityMin, max: form.humidityMax },
  };
}

/** The four limit inputs, two per row on wider screens. */
export function LimitFields<Input extends FieldValues & LimitsInput, Output>({ control }: { control: Control<Input, unknown, Output> }) {
  const name = (key: keyof LimitsInput) => key as FieldPath<Input>;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
      <NumberField control={control} name={name('temperatureMin')} label="Temperatura mínima (°C)" />
      <NumberField control={control} name={name('temperatureMax')} label="Temperatura máxima (°C)" />
      <NumberField control={control} name={name('humidityMin')} label="Umidade mínima (%)" />
      <NumberField control={control} name={name('humidityMax')} label="Umidade máxima (%)" />
    </SimpleGrid>
  );
}
