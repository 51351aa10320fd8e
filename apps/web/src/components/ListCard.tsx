import { Box, Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One row of a list as a card on phones (`DataTable`'s `renderCards`, ADR 90): the row's name in bold, its badge at the
 * right, an optional line under the name and an optional box before it (a selectable row's); then what the children
 * say — the row's fields as `CardLine`s and the row's own actions.
 */
export function ListCard({
  testId,
  title,
  subtitle,
  badge,
  lead,
  bg,
  children,
}: {
  testId: string;
  title?: ReactNode;
  subtitle?: ReactNode;
  badge?: ReactNode;
  lead?: ReactNode;
  /** A chosen row's tint, as the table gives it. */
  bg?: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid={testId} bg={bg}>
      <Stack gap={6}>
        {title !== undefined && (
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Group align="flex-start" wrap="nowrap" gap="xs" style={{ minWidth: 0 }}>
              {lead}
              <div style={{ minWidth: 0 }}>
                <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {title}
                </Text>
                {subtitle !== undefined && (
                  <Text size="xs" c="dimmed">
                    {subtitle}
                  </Text>
                )}
              </div>
            </Group>
            {badge && <Box style={{ flexShrink: 0 }}>{badge}</Box>}
          </Group>
        )}
        {children}
      </Stack>
    </Card>
  );
}

/** A page of a list's cards, one under the other. */
export function ListCards({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Stack gap="sm" data-testid={testId}>
      {children}
    </Stack>
  );
}
