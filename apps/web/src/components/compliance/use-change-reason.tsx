import { useState, type ReactNode } from 'react';
import { useCompliance } from '../../lib/compliance';
import { ReasonField, reasonBody, reasonProblem } from './ReasonField';

export interface ChangeReason {
  /** The "Motivo da alteração" field, or null where no reason can be asked (an enterprise out of GxP mode). */
  field: ReactNode;
  /**
   * The form's check before sending: the body part to spread into the request (`{reason}` or `{}`), or null when the
   * reason is missing or too short (the field then shows why, with the server's words).
   */
  take: () => { reason?: string } | null;
  /** Clears the typed reason (a modal reused for the next change). */
  reset: () => void;
}

/**
 * A form's reason for change (GxP mode, ADR 0061, 0063): the field in the same form as the change, required when the
 * signed-in user's enterprise is in GxP mode, shown optional to the super admin (whose changes may touch any
 * enterprise), absent otherwise. `applies`: whether the change being made is one that needs a reason (a profile's phone
 * alone is not). Every form that changes a GxP record uses this, so they all ask the same way.
 */
export function useChangeReason(applies = true): ChangeReason {
  const compliance = useCompliance();
  const asked = applies && compliance.mayNeedReason;
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const field = asked ? (
    <ReasonField
      value={value}
      onChange={(next) => {
        setValue(next);
        if (error) setError(null);
      }}
      required={compliance.gxp}
      error={error}
    />
  ) : null;
  const take = () => {
    if (!asked) return {};
    const problem = reasonProblem(value, compliance.gxp);
    setError(problem);
    return problem ? null : reasonBody(value);
  };
  const reset = () => {
    setValue('');
    setError(null);
  };
  return { field, take, reset };
}
