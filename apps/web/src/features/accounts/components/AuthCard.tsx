import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The card the signed-out account screens share (same look as /login). */
export function AuthCard({ title, children, width = 420 }: { title: string; children: ReactNode; width?: number }) {
  return (
    <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} maw={width} mx="auto" mt="xl">
      <Stack>
        <Title order={2} ta="center">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
