import { Badge, Tooltip } from '@mantine/core';
import type { LiveState } from '../live/controller';

const LABELS = {
  connecting: { text: 'Conectando...', color: 'gray' },
  live: { text: 'Ao vivo', color: 'teal' },
  offline: { text: 'Reconectando...', color: 'orange' },
  refused: { text: 'Sem atualizações ao vivo', color: 'red' },
} as const;

/** Whether the screen receives live updates of the travel (T6). */
export function LiveBadge({ state }: { state: LiveState | null }) {
  if (!state) return null;
  const label = LABELS[state.status];
  const badge = (
    <Badge color={label.color} variant="dot" data-testid="live-status" data-status={state.status}>
      {label.text}
    </Badge>
  );
  return state.error ? (
    <Tooltip label={state.error} withinPortal>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
