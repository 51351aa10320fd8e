import '@mantine/core/styles/Tabs.css';
import { Center, Group, Loader, Paper, Stack, Tabs, Text } from '@mantine/core';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { formatHumidity, formatHumidityRange, formatTemperature, formatTemperatureRange } from '../../lib/format';
import type { ChartModel, Measure } from './model';

const LineChart = lazy(() => import('./LineChart'));

export const MEASURE_FORMAT: Record<Measure, (value: number | null) => string> = {
  temperature: formatTemperature,
  humidity: formatHumidity,
};

/** "Limites: 2,00 a 8,00 °C" under a chart, or nothing when the device has no limit of that measure. */
export function limitsNote(measure: Measure, limits: { min: number | null; max: number | null }): string | undefined {
  if (limits.min === null && limits.max === null) return undefined;
  return `Limites: ${(measure === 'temperature' ? formatTemperatureRange : formatHumidityRange)(limits.min, limits.max)}`;
}

/** The Temperatura and Umidade tabs of the documents' charts (device history, travel device cards). */
export function MeasureTabs({ children }: { children: (measure: Measure) => ReactNode }) {
  const [measure, setMeasure] = useState<Measure>('temperature');
  return (
    <Tabs value={measure} onChange={(value) => setMeasure(value === 'humidity' ? 'humidity' : 'temperature')} keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="temperature">Temperatura</Tabs.Tab>
        <Tabs.Tab value="humidity">Umidade</Tabs.Tab>
      </Tabs.List>
      {(['temperature', 'humidity'] as const).map((value) => (
        <Tabs.Panel key={value} value={value} pt="sm">
          {children(value)}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

export interface Figure {
  label: string;
  value: string;
}

/** A measure's key figures over its chart (uPlot loads with the first chart shown). */
export function MeasureChartPanel({ figures, note, model, measure, testId }: { figures: Figure[]; note?: ReactNode; model: ChartModel; measure: Measure; testId: string }) {
  return (
    <Stack gap="sm">
      <Group gap="sm" data-testid={testId}>
        {figures.map((figure) => (
          <Paper key={figure.label} withBorder px="sm" py={4} radius="sm">
            <Text size="xs" c="dimmed" lh={1.3}>
              {figure.label}
            </Text>
            <Text fw={700} lh={1.3}>
              {figure.value}
            </Text>
          </Paper>
        ))}
        {note && (
          <Text size="sm" c="dimmed">
            {note}
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
        <LineChart model={model} measure={measure} />
      </Suspense>
    </Stack>
  );
}
