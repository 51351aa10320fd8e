import { Badge, Tooltip } from '@mantine/core';
import type { LiveDevicesStatus } from '../lib/live-device-states';

const LABELS: Record<LiveDevicesStatus, { text: string; color: string }> = {
  connecting: { text: 'Conectando...', color: 'gray' },
  live: { text: 'Ao vivo', color: 'teal' },
  offline: { text: 'Reconectando...', color: 'orange' },
  refused: { text: 'Sem atualizações ao vivo', color: 'red' },
};

/**
 * Whether a screen receives live updates: travels (T6), Locais (A8), the device lists (D1, D2). `error`, the server's
 * reason for a refusal, shows on hover.
 */
export function LiveStatusBadge({ status, error }: { status: LiveDevicesStatus | null; error?: string }) {
  if (!status) return null;
  const label = LABELS[status];
  const badge = (
    <Badge color={label.color} variant="dot" data-testid="live-status" data-status={status}>
      {label.text}
    </Badge>
  );
  return error ? (
    <Tooltip label={error} withinPortal>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
