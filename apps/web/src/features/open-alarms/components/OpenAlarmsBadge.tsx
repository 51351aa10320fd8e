import { ActionIcon, Indicator, Popover, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useAlarmChanges, useOpenAlarmCounts } from '../../../lib/live-alarms';
import { openAlarmKeys } from '../api/keys';
import { badgeLabel, OPEN_ALARMS_MESSAGES } from '../messages';
import { OpenAlarmsList } from './OpenAlarmsList';
import '../styles';

/**
 * The header's open-alarms badge (issue 11, item 5): a bell with the live count of open alarms the user may see
 * (red while any is unacknowledged, orange when all are), opening the list of open alarms across devices.
 */
export function OpenAlarmsBadge() {
  const counts = useOpenAlarmCounts();
  const queryClient = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Any change (or a reconnection) makes the list stale; it reloads now if shown, else when next opened.
  useAlarmChanges(() => void queryClient.invalidateQueries({ queryKey: openAlarmKeys.list }));

  const count = counts?.count ?? null;
  return (
    <Popover opened={opened} onChange={(next) => (next ? undefined : close())} position="bottom-end" hideDetached={false} width="min(24rem, calc(100vw - 1rem))" shadow="md">
      <Popover.Target>
        <Indicator
          label={count !== null && count > 99 ? '99+' : count}
          disabled={!count}
          color={counts && counts.unacknowledged > 0 ? 'red' : 'orange'}
          size={18}
          offset={4}
          data-testid="open-alarms-count"
        >
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={badgeLabel(count)} aria-expanded={opened} onClick={toggle}>
            <IconBell size={22} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <Text fw={700} size="sm" mb="xs">
          {OPEN_ALARMS_MESSAGES.title}
        </Text>
        {opened && (
          <ScrollArea.Autosize mah="min(28rem, 70vh)" type="auto">
            <OpenAlarmsList onNavigate={close} />
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
