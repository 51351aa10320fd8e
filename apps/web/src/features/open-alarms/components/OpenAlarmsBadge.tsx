import { ActionIcon, Indicator } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useAlarmChanges, useOpenAlarmCounts } from '../../../lib/live-alarms';
import { openAlarmKeys } from '../api/keys';
import { badgeLabel } from '../messages';
import '../styles';

// The list, its acknowledgement form and the popover's positioning code (~40 kB gzip) load when the bell is first
// pointed at or clicked, not with the shell (ADR 0040); the first click opens the list once they have arrived.
const loadPopover = () => import('./OpenAlarmsPopover');
const OpenAlarmsPopover = lazy(() => loadPopover().then((module) => ({ default: module.OpenAlarmsPopover })));

/**
 * The header's open-alarms badge (issue 11, item 5): a bell with the live count of open alarms the user may see
 * (red while any is unacknowledged, orange when all are), opening the list of open alarms across devices.
 */
export function OpenAlarmsBadge() {
  const counts = useOpenAlarmCounts();
  const queryClient = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure(false);
  const [everOpened, setEverOpened] = useState(false);
  if (opened && !everOpened) setEverOpened(true);
  // Any change (or a reconnection) makes the list stale; it reloads now if shown, else when next opened.
  useAlarmChanges(() => void queryClient.invalidateQueries({ queryKey: openAlarmKeys.list }));

  const count = counts?.count ?? null;
  const bell = (
    <Indicator
      label={count !== null && count > 99 ? '99+' : count}
      disabled={!count}
      color={counts && counts.unacknowledged > 0 ? 'red' : 'orange'}
      size={18}
      offset={4}
      data-testid="open-alarms-count"
    >
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={badgeLabel(count)}
        aria-expanded={opened}
        onClick={toggle}
        onPointerEnter={() => void loadPopover()}
        onFocus={() => void loadPopover()}
      >
        <IconBell size={22} />
      </ActionIcon>
    </Indicator>
  );
  if (!everOpened) return bell;
  return (
    <Suspense fallback={bell}>
      <OpenAlarmsPopover opened={opened} onClose={close} target={bell} />
    </Suspense>
  );
}
