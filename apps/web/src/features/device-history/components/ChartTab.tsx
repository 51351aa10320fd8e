import { Alert, Center, Group, Loader, Paper, Stack, Tabs, Text } from '@mantine/core';
import type { HistorySeries } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { formatHumidity, formatTemperature } from '../../../lib/format';
import { useHistorySeries } from '../api/get-history-series';
import { hasChartData, toChartModel, type Measure } from '../chart-data';
import { HISTORY_MESSAGES } from '../messages';

const HistoryChart = lazy(() => import('../../../components/chart/LineChart'));

const FORMAT: Record<Measure, (value: number | null) => string> = {
  temperature: formatTemperature,
  humidity: formatHumidity,
};

/** Gráfico: Temperatura and Umidade charts of the filtered readings (D3). */
export function ChartTab({ mac, filterQuery }: { mac: string; filterQuery: string }) {
  const series = useHistorySeries(mac, filterQuery);
  const [measure, setMeasure] = useState<Measure>('temperature');

  return (
    <Stack gap="sm">
      {series.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {HISTORY_MESSAGES.readingsLoadError}
        </Alert>
      )}
      <Tabs value={measure} onChange={(value) => setMeasure(value === 'humidity' ? 'humidity' : 'temperature')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="temperature">Temperatura</Tabs.Tab>
          <Tabs.Tab value="humidity">Umidade</Tabs.Tab>
        </Tabs.List>
        {(['temperature', 'humidity'] as const).map((value) => (
          <Tabs.Panel key={value} value={value} pt="sm">
            {series.isPending ? (
              <Center py="xl">
                <Loader size="sm" aria-label="Carregando..." />
              </Center>
            ) : (
              <MeasureChart series={series.data} measure={value} />
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
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
  const format = FORMAT[measure];
  const stats = series.stats[measure];
  const limits = series.limits[measure];
  return (
    <Stack gap="sm">
      <Group gap="sm" data-testid="chart-stats">
        <Figure label="Máxima" value={format(stats.max)} />
        <Figure label="Mínima" value={format(stats.min)} />
        {measure === 'temperature' && <Figure label="Média" value={format(stats.mean)} />}
        {(limits.min !== null || limits.max !== null) && (
          <Text size="sm" c="dimmed">
            Limites: {format(limits.min)} a {format(limits.max)}
          </Text>
        )}
      </Group>
      <Suspense
        fallback={
          <Center h={340}>
            <Loader size="sm" aria-label="Carregando..." />
          </Center>
        }
      >
        <HistoryChart model={model} measure={measure} />
      </Suspense>
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder px="sm" py={4} radius="sm">
      <Text size="xs" c="dimmed" lh={1.3}>
        {label}
      </Text>
      <Text fw={700} lh={1.3}>
        {value}
      </Text>
    </Paper>
  );
}
