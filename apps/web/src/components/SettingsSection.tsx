import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { MSG } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api-client';

/** One section of Configurações: a card with its title, what it is for, and its content. */
export function SettingsSection({ title, description, testId, children }: { title: string; description?: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" data-testid={testId}>
      <Stack>
        <Title order={4}>{title}</Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** A section's stored values: a loader while they come, the error if they do not, else the form made with them. */
export function SettingsValues<T>({ query, children }: { query: UseQueryResult<T>; children: (values: T) => ReactNode }) {
  if (query.isPending) {
    return (
      <Center>
        <Loader aria-label="Carregando" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(query.error, MSG.internalError)}
      </Alert>
    );
  }
  return children(query.data);
}

/** The section form's Salvar, at its right end. */
export function SettingsSaveButton({ loading }: { loading: boolean }) {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={loading}>
        Salvar
      </Button>
    </Group>
  );
}
