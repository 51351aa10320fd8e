import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';

/** The product's mark: a shield and the name. */
export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg';
  return (
    <Group gap="xs" wrap="nowrap" aria-label="Sentinela" role="img">
      <ThemeIcon size={large ? 48 : 32} radius="md" variant="filled" color="teal" aria-hidden>
        <IconShieldCheck size={large ? 30 : 20} stroke={1.8} />
      </ThemeIcon>
      <Text fw={800} fz={large ? 30 : 20} c="teal.8" lh={1} aria-hidden>
        Sentinela
      </Text>
    </Group>
  );
}
