import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Table text that must stay on one line, such as a date and its time. */
export function NoWrap({ children }: { children: ReactNode }) {
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
      {children}
    </Text>
  );
}
