import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { MSG } from '@sentinela/contract';

/** Shown when a screen fails to load or render (e.g. a chunk of an older build is gone). */
export function RouteErrorPage() {
  return (
    <Center mih="60vh">
      <Stack align="center">
        <Title order={2}>Erro!</Title>
        <Text>{MSG.internalError}</Text>
        <Button onClick={() => window.location.reload()}>Recarregar</Button>
      </Stack>
    </Center>
  );
}
