import { Alert, Center, Group, Loader, Modal, Paper, Stack, Tabs, Text } from '@mantine/core';
import type { TravelDevice } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Measure } from '../../../components/chart/model';
import { formatHumidity, formatTemperature } from '../../../lib/format';
import { useTravelDeviceHistory } from '../api/get-device-history';
import { measureStats, readingsChartModel } from '../chart';
import { TRAVEL_MESSAGES } from '../messages';

const LineChart = lazy(() => import('../../../components/chart/LineChart'));

const FORMAT: Record<Measure, (value: number | null) => string> = {
  temperature: formatTemperature,
  humidity: formatHumidity,
};

interface GraphModalProps {
  travelId: string;
  device: TravelDevice | null;
  onClose: () => void;
}

/** "Gráficos" of a device card (T3): Temperatura and Umidade over Horário, with the maximum and minimum. */
export function GraphModal({ travelId, device, onClose }: GraphModalProps) {
  return (
    <Modal opened={device !== null} onClose={onClose} title={device ? `Gráficos — ${device.name}` : ''} size="xl" centered>
      {device && <GraphContent travelId={travelId} device={device} />}
    </Modal>
  );
}

function GraphContent({ travelId, device }: { travelId: string; device: TravelDevice }) {
  const history = useTravelDeviceHistory(travelId, device.mac);
  const [measure, setMeasure] = useState<Measure>('temperature');

  return (
    <Tabs value={measure} onChange={(value) => setMeasure(value === 'humidity' ? 'humidity' : 'temperature')} keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="temperature">Temperatura</Tabs.Tab>
        <Tabs.Tab value="humidity">Umidade</Tabs.Tab>
      </Tabs.List>
      {(['temperature', 'humidity'] as const).map((value) => (
        <Tabs.Panel key={value} value={value} pt="sm">
          {history.isPending ? (
            <Center py="xl">
              <Group gap="xs">
                <Loader size="sm" />
                <Text c="dimmed">{TRAVEL_MESSAGES.dataLoading}</Text>
              </Group>
            </Center>
          ) : history.isError ? (
            <Alert color="red" title={TRAVEL_MESSAGES.errorTitle} icon={<IconAlertCircle />}>
              {TRAVEL_MESSAGES.readingsLoadError}
            </Alert>
          ) : (
            <MeasurePanel readings={history.data} measure={value} device={device} />
          )}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

function MeasurePanel({
  readings,
  measure,
  device,
}: {
  readings: Parameters<typeof measureStats>[0];
  measure: Measure;
  device: TravelDevice;
}) {
  const limits = device.config[measure];
  const stats = useMemo(() => measureStats(readings, measure), [readings, measure]);
  const model = useMemo(() => readingsChartModel(readings, measure, limits), [readings, measure, limits]);
  const format = FORMAT[measure];

  if (stats.count < 2) {
    return (
      <Text ta="center" c="dimmed" py="xl">
        {TRAVEL_MESSAGES.chartEmpty}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Group gap="sm" data-testid="graph-stats">
        <Figure label="Máxima" value={format(stats.max)} />
        <Figure label="Mínima" value={format(stats.min)} />
        <Text size="sm" c="dimmed">
          {stats.count} leituras
        </Text>
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
