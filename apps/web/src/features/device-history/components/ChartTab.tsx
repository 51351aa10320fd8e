import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import type { HistorySeries } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { limitsNote, MEASURE_FORMAT, MeasureChartPanel, MeasureTabs } from '../../../components/chart/MeasureTabs';
import { useHistorySeries } from '../api/get-history-series';
import { hasChartData, toChartModel, type Measure } from '../chart-data';
import { HISTORY_MESSAGES } from '../messages';

/** Gráfico: Temperatura and Umidade charts of the filtered readings (D3). */
export function ChartTab({ mac, filterQuery }: { mac: string; filterQuery: string }) {
  const series = useHistorySeries(mac, filterQuery);
  return (
    <Stack gap="sm">
      {series.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {HISTORY_MESSAGES.readingsLoadError}
        </Alert>
      )}
      <MeasureTabs>
        {(measure) =>
          series.isPending ? (
            <Center py="xl">
              <Loader size="sm" aria-label="Carregando..." />
            </Center>
          ) : (
            <MeasureChart series={series.data} measure={measure} />
          )
        }
      </MeasureTabs>
    </Stack>
  );
}

/** One measure: its max, min (and mean for temperature) and the chart, or "Nada encontrado.". */
export function MeasureChart({ series, measure }: { series: HistorySeries | undefined; measure: Measure }) {
  const model = useMemo(() => (series ? toChartModel(series, measure) : null), [series, measure]);
  if (!series || !model || !hasChartData(series, measure)) {
    return (
      <Text ta="center" c="dimmed" py="xl">
        {HISTORY_MESSAGES.empty}
      </Text>
    );
  }
  const format = MEASURE_FORMAT[measure];
  const stats = series.stats[measure];
  const limits = series.limits[measure];
  const figures = [
    { label: 'Máxima', value: format(stats.max) },
    { label: 'Mínima', value: format(stats.min) },
    ...(measure === 'temperature' ? [{ label: 'Média', value: format(stats.mean) }] : []),
  ];
  const note = limitsNote(measure, limits);
  return <MeasureChartPanel figures={figures} note={note} model={model} measure={measure} testId="chart-stats" />;
}
