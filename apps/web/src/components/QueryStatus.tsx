import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A centred loader while a query's first answer is on its way; the label is what screen readers hear. */
export function LoadingBlock({ label = 'Carregando...' }: { label?: string }) {
  return (
    <Center py="lg">
      <Loader aria-label={label} />
    </Center>
  );
}

/**
 * A query that failed: its message and "Tentar novamente", which fetches again (busy while it does). Beside the text
 * in wide places; under it where the space is narrow (stacked).
 */
export function RetryAlert({
  message,
  onRetry,
  retrying,
  title = 'Erro!',
  stacked = false,
}: {
  message: string;
  onRetry: () => void;
  retrying: boolean;
  title?: string;
  stacked?: boolean;
}) {
  const text = <Text size="sm">{message}</Text>;
  const button = (
    <Button size="compact-sm" variant="light" color="red" onClick={onRetry} loading={retrying}>
      Tentar novamente
    </Button>
  );
  return (
    <Alert color="red" title={title} icon={<IconAlertCircle />}>
      {stacked ? (
        <Stack gap="xs" align="flex-start">
          {text}
          {button}
        </Stack>
      ) : (
        <Group justify="space-between" gap="sm">
          {text}
          {button}
        </Group>
      )}
    </Alert>
  );
}
