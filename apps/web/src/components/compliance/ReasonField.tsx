import { Textarea } from '@mantine/core';

interface ReasonFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** GxP mode: the change needs a reason (3–500 characters). */
  required: boolean;
  error?: string | null;
}

/**
 * "Motivo da alteração" (GxP mode, ADR 0061): asked in the same modal as the change; it goes with the request and is
 * written into the audit trail entry of the change.
 */
export function ReasonField({ value, onChange, required, error }: ReasonFieldProps) {
  return (
    <Textarea
      label="Motivo da alteração"
      description={required ? 'Modo GxP: obrigatório. Fica registrado na trilha de auditoria.' : 'Opcional para esta empresa; fica registrado na trilha de auditoria.'}
      withAsterisk={required}
      rows={2}
      maxLength={500}
      value={value}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-testid="reason-field"
    />
  );
}

/** The reason to send: trimmed, or nothing (an empty optional one is not sent). */
export function reasonBody(value: string): { reason?: string } {
  const text = value.trim();
  return text ? { reason: text } : {};
}

/** The form's own check before sending, with the server's words. */
export function reasonProblem(value: string, required: boolean): string | null {
  const text = value.trim();
  if (!text) return required ? 'Informe o motivo da alteração.' : null;
  if (text.length < 3) return 'O motivo deve ter no mínimo 3 caracteres.';
  return null;
}
