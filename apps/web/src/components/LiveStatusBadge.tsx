import { Badge } from '@mantine/core';
import type { LiveDevicesStatus } from '../lib/live-device-states';

const LABELS: Record<LiveDevicesStatus, { text: string; color: string }> = {
  connecting: { text: 'Conectando...', color: 'gray' },
  live: { text: 'Ao vivo', color: 'teal' },
  offline: { text: 'Reconectando...', color: 'orange' },
  refused: { text: 'Sem atualizações ao vivo', color: 'red' },
};

/** Whether a screen receives its devices' readings live (the texts of the travels' and Locais' badges). */
export function LiveStatusBadge({ status }: { status: LiveDevicesStatus | null }) {
  if (!status) return null;
  const label = LABELS[status];
  return (
    <Badge color={label.color} variant="dot" data-testid="live-status" data-status={status}>
      {label.text}
    </Badge>
  );
}
