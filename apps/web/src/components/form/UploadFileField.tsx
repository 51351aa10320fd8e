import { FileInput, Progress } from '@mantine/core';
import { formatMegabytes } from '@sentinela/contract';
import { IconFileUpload } from '@tabler/icons-react';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';

/** What a file field says when its file is missing, empty or over the server's limit (each area words its own). */
export interface UploadFileMessages {
  fileRequired: string;
  fileEmpty: string;
  fileTooLarge: (maxBytes: number) => string;
}

interface UploadFileFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPathByValue<T, File | null>;
  label: string;
  placeholder: string;
  /** The server's size limit (from its limits call), checked before sending; null while unknown. */
  maxBytes: number | null;
  messages: UploadFileMessages;
  accept?: string;
}

/**
 * The file of an upload form (firmware, calibration certificates): required, not empty, within the server's limit,
 * said in pt-BR under the field before a byte is sent. The server checks the same again.
 */
export function UploadFileField<T extends FieldValues>({ control, name, label, placeholder, maxBytes, messages, accept }: UploadFileFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      rules={{
        validate: (file: File | null) => {
          if (!file) return messages.fileRequired;
          if (file.size === 0) return messages.fileEmpty;
          if (maxBytes !== null && file.size > maxBytes) return messages.fileTooLarge(maxBytes);
          return true;
        },
      }}
      render={({ field, fieldState }) => (
        <FileInput
          label={label}
          placeholder={placeholder}
          description={maxBytes !== null ? `Até ${formatMegabytes(maxBytes)}.` : undefined}
          accept={accept}
          leftSection={<IconFileUpload size={16} />}
          clearable
          withAsterisk
          error={fieldState.error?.message}
          value={field.value as File | null}
          onChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
        />
      )}
    />
  );
}

/** The upload's progress (0..1) while it is sent; nothing otherwise. */
export function UploadProgress({ progress, label }: { progress: number | null; label: string }) {
  return progress !== null ? <Progress value={Math.round(progress * 100)} aria-label={label} animated /> : null;
}
