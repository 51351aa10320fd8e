import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A file's SHA-256, shortened or whole, with a button that copies all of it (to compare with a download's). */
export function FileChecksum({ sha256, short = false }: { sha256: string; short?: boolean }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Code title={sha256} style={{ wordBreak: 'break-all' }}>
        {short ? `${sha256.slice(0, 12)}…` : sha256}
      </Code>
      <CopyButton value={sha256}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copiado' : 'Copiar SHA-256'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copiar SHA-256">
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
