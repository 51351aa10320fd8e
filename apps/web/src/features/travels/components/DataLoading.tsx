import { Center, Group, Loader, Text } from '@mantine/core';
import { TRAVEL_MESSAGES } from '../messages';

/** The documents' "Aguarde.. Carregando dados..." while a travel's data loads. */
export function DataLoading() {
  return (
    <Center py="xl">
      <Group gap="xs">
        <Loader size="sm" />
        <Text c="dimmed">{TRAVEL_MESSAGES.dataLoading}</Text>
      </Group>
    </Center>
  );
}
