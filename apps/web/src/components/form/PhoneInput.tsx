import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';
import { maskPhone } from '../../lib/phone';

/** A text input with the documents' phone mask, (99) 99999-9999; works with react-hook-form's `register`. */
export const PhoneInput = forwardRef<HTMLInputElement, TextInputProps>(function PhoneInput({ onChange, ...props }, ref) {
  return (
    <TextInput
      ref={ref}
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      placeholder="(99) 99999-9999"
      {...props}
      onChange={(event) => {
        event.currentTarget.value = maskPhone(event.currentTarget.value);
        onChange?.(event);
      }}
    />
  );
});
