import { Badge } from '@mantine/core';
import { calibrationBadge } from '@sentinela/contract';
import { todayIso } from '../lib/format';

/**
 * "Calibração vence em DD/MM/AAAA" (yellow) or "Calibração vencida" (red) beside a device whose certificate in force
 * is due within 30 days or expired (X12, ADR 0077); nothing otherwise. Read from the device's `calibration_due_at`.
 */
export function CalibrationBadge({ dueAt, size = 'sm' }: { dueAt: string | null | undefined; size?: 'xs' | 'sm' }) {
  const badge = calibrationBadge(dueAt, todayIso());
  if (!badge) return null;
  return (
    <Badge color={badge.status === 'overdue' ? 'red' : 'yellow'} variant="light" size={size} data-testid="calibration-badge" style={{ textTransform: 'none' }}>
      {badge.text}
    </Badge>
  );
}
