import { Center, Loader } from '@mantine/core';

/** Shown while a screen's chunk loads. */
export function PageFallback() {
  return (
    <Center py="xl">
      <Loader aria-label="Carregando..." />
    </Center>
  );
}
