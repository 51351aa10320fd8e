import { Anchor, Text } from '@mantine/core';
import { formatInteger } from '../../../lib/format';
import { useHistoricCount } from '../api/historic-count';

/** "Qtd de registros": counted only when asked (Clique para ver → Carregando... → the count). */
export function HistoricCountCell({ mac }: { mac: string }) {
  const count = useHistoricCount(mac);

  if (count.data !== undefined) return <Text size="sm">{formatInteger(count.data)}</Text>;
  if (count.isFetching) return <Text size="sm">Carregando...</Text>;
  return (
    <Anchor component="button" type="button" size="sm" ta="start" onClick={() => void count.refetch()}>
      Clique para ver
    </Anchor>
  );
}
