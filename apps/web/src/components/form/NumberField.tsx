import { NumberInput } from '@mantine/core';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

interface NumberFieldProps<Input extends FieldValues, Output> {
  control: Control<Input, unknown, Output>;
  name: FieldPath<Input>;
  label: string;
  description?: string;
  /** Decimal places (0: whole numbers, no sign). */
  decimals?: number;
  required?: boolean;
}

/**
 * A number input of a react-hook-form form, in Brazilian notation (decimal comma). The form keeps what was typed
 * (number or text) and its zod schema parses it, so "12,5" and "" reach validation as typed.
 */
export function NumberField<Input extends FieldValues, Output>({ control, name, label, description, decimals = 2, required }: NumberFieldProps<Input, Output>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          description={description}
          value={field.value as number | string}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          decimalSeparator=","
          decimalScale={decimals}
          allowDecimal={decimals > 0}
          allowNegative={decimals > 0}
          hideControls
          inputMode={decimals > 0 ? 'decimal' : 'numeric'}
          required={required}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
