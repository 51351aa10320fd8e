import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CopyableBlock } from './CopyableBlock';

interface ShownOnceSecretProps {
  /** "Copie o token agora". */
  title: string;
  /** Why it must be copied now and what to do if it is lost. */
  warning: ReactNode;
  label: string;
  value: string;
  testId?: string;
  /** How to use it (headers, examples), under the value. */
  children?: ReactNode;
  /** Beside Concluir, at the left (a link to open it). */
  aside?: ReactNode;
  onDone: () => void;
}

/**
 * A secret the server shows this once (an API token, a webhook's signing secret, a monitor link's address): the
 * warning, the value with its copy button, how to use it, and Concluir.
 */
export function ShownOnceSecret({ title, warning, label, value, testId, children, aside, onDone }: ShownOnceSecretProps) {
  return (
    <Stack>
      <Alert color="yellow" title={title} icon={<IconAlertTriangle />}>
        {warning}
      </Alert>
      <CopyableBlock label={label} value={value} testId={testId} />
      {children}
      <Group justify={aside ? 'space-between' : 'flex-end'}>
        {aside}
        <Button onClick={onDone}>Concluir</Button>
      </Group>
    </Stack>
  );
}
