import { AUDIT_ACTION_LABELS, AUDIT_ACTOR_TYPE_LABELS, AUDIT_ENTITY_LABELS, auditFieldLabel, formatAuditValue } from '@sentinela/contract';
import { formatDateTime } from '../../lib/format';

/** pt-BR names of what the audit trail records (X11): the contract's, shared with the trail's exports. */
export const ENTITY_LABELS = AUDIT_ENTITY_LABELS;
export const ACTION_LABELS = AUDIT_ACTION_LABELS;
export const ACTOR_TYPE_LABELS = AUDIT_ACTOR_TYPE_LABELS;
export const fieldLabel = auditFieldLabel;

/** A recorded value as the screen shows it: dates in the browser's local time. */
export const formatValue = (key: string, value: unknown): string => formatAuditValue(key, value, formatDateTime);
