import { Popover, ScrollArea, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { OPEN_ALARMS_MESSAGES } from '../messages';
import { OpenAlarmsList } from './OpenAlarmsList';

interface OpenAlarmsPopoverProps {
  opened: boolean;
  onClose: () => void;
  /** The bell, which the popover hangs from. */
  target: ReactNode;
}

/**
 * The list of open alarms under the header's bell. A chunk of its own (with the popover's positioning code and the
 * acknowledgement form): the bell paints with the shell, this loads right after (ADR 0040).
 */
export function OpenAlarmsPopover({ opened, onClose, target }: OpenAlarmsPopoverProps) {
  return (
    <Popover opened={opened} onChange={(next) => (next ? undefined : onClose())} position="bottom-end" hideDetached={false} width="min(24rem, calc(100vw - 1rem))" shadow="md">
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown p="xs">
        <Text fw={700} size="sm" mb="xs">
          {OPEN_ALARMS_MESSAGES.title}
        </Text>
        {opened && (
          <ScrollArea.Autosize mah="min(28rem, 70vh)" type="auto">
            <OpenAlarmsList onNavigate={onClose} />
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
