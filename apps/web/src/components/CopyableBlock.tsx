import { ActionIcon, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** Text to paste elsewhere (a key, a command), with a button that copies it whole. */
export function CopyableBlock({ label, value, block = false, testId }: { label: string; value: string; block?: boolean; testId?: string }) {
  return (
    <div>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copiado' : 'Copiar'} withArrow>
              <ActionIcon variant="light" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copiar ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block={block} style={{ whiteSpace: block ? 'pre-wrap' : undefined, wordBreak: 'break-all', display: 'block' }} data-testid={testId}>
        {value}
      </Code>
    </div>
  );
}
