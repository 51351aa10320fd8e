import { Group, Text } from '@mantine/core';
import type { ElectronicSignature } from '@sentinela/contract';
import { IconSignature } from '@tabler/icons-react';
import { formatDateTime } from '../../lib/format';

/** "Assinado eletronicamente por João Silva (joao.silva) em 28/11/2026 10:15 — Revisado" (ADR 0062). */
export function SignatureLine({ signature }: { signature: ElectronicSignature }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="signature-line">
      <IconSignature size={16} style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="xs">
        Assinado eletronicamente por <b>{signature.printed_name}</b> ({signature.username}) em {formatDateTime(signature.signed_at)} —{' '}
        <b>{signature.meaning}</b>
        <Text span size="xs" c="dimmed" title={`Assinatura ${signature.hash}`}>
          {' '}
          · {signature.hash.slice(0, 12)}…
        </Text>
      </Text>
    </Group>
  );
}
