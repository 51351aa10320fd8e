import { Text } from '@mantine/core';
import type { ReportTimestamp } from '@sentinela/contract';
import { formatDateTimeWithZone } from '../../../lib/format';

/**
 * The RFC 3161 timestamp of a validated file (ADR 79): when and by which authority it was stamped, or why it has
 * none. A timestamp proves the signature existed at that time, so it still counts after the certificate expires.
 */
export function TimestampDetails({ timestamp }: { timestamp: ReportTimestamp }) {
  const when = formatDateTimeWithZone(timestamp.time);
  switch (timestamp.status) {
    case 'stamped':
      return (
        <Block title="Carimbo de tempo">
          <Text size="sm">{when}</Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Autoridade: {timestamp.authority}
          </Text>
          {timestamp.kind === 'document' && (
            <Text size="xs" c="dimmed">
              Carimbo do documento, adicionado depois da assinatura.
            </Text>
          )}
        </Block>
      );
    case 'invalid':
      return (
        <Block title="Carimbo de tempo">
          <Text size="sm" c="red">
            Carimbo de tempo inválido: ele não confere com a assinatura deste arquivo.
          </Text>
        </Block>
      );
    case 'pending':
      return (
        <Block title="Carimbo de tempo">
          <Text size="sm">Pendente: a autoridade de carimbo do tempo não respondeu quando o relatório foi assinado. A plataforma tentará novamente.</Text>
        </Block>
      );
    case 'later':
      return (
        <Block title="Carimbo de tempo">
          <Text size="sm">Esta cópia não tem carimbo de tempo. O relatório recebeu um carimbo em {when}; baixe-o novamente para ter a cópia carimbada.</Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Autoridade: {timestamp.authority}
          </Text>
        </Block>
      );
    case 'none':
      return (
        <Block title="Carimbo de tempo">
          <Text size="sm">Sem carimbo de tempo</Text>
        </Block>
      );
  }
}

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div data-testid="validated-timestamp" style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {title}
      </Text>
      {children}
    </div>
  );
}
