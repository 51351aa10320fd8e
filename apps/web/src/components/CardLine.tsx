import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A "Rótulo: valor" line of a list's card on phones (DataTable's `renderCards`), the label being the header of the
 * table's column it stands for.
 */
export function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
      <Text span size="sm" c="dimmed">
        {label}:{' '}
      </Text>
      {children}
    </Text>
  );
}
