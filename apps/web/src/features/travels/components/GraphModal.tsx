import { Alert, Modal, Text } from '@mantine/core';
import type { TravelDevice } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { MEASURE_FORMAT, MeasureChartPanel, MeasureTabs } from '../../../components/chart/MeasureTabs';
import type { Measure } from '../../../components/chart/model';
import { pluralize } from '../../../lib/format';
import { useTravelDeviceHistory, type TravelAccess } from '../api/get-device-history';
import { measureStats, readingsChartModel } from '../chart';
import { TRAVEL_MESSAGES } from '../messages';
import { DataLoading } from './DataLoading';

interface GraphModalProps {
  /** The travel, and how its readings are reached (by id, or through its tracking code: ADR 72). */
  access: TravelAccess;
  device: TravelDevice | null;
  onClose: () => void;
}

/** "Gráficos" of a device card (T3): Temperatura and Umidade over Horário, with the maximum and minimum. */
export function GraphModal({ access, device, onClose }: GraphModalProps) {
  return (
    <Modal opened={device !== null} onClose={onClose} title={device ? `Gráficos — ${device.name}` : ''} size="xl" centered>
      {device && <GraphContent access={access} device={device} />}
    </Modal>
  );
}

function GraphContent({ access, device }: { access: TravelAccess; device: TravelDevice }) {
  const history = useTravelDeviceHistory(access, device.mac);
  return (
    <MeasureTabs>
      {(measure) =>
        history.isPending ? (
          <DataLoading />
        ) : history.isError ? (
          <Alert color="red" title={TRAVEL_MESSAGES.errorTitle} icon={<IconAlertCircle />}>
            {TRAVEL_MESSAGES.readingsLoadError}
          </Alert>
        ) : (
          <MeasurePanel readings={history.data} measure={measure} device={device} />
        )
      }
    </MeasureTabs>
  );
}

function MeasurePanel({ readings, measure, device }: { readings: Parameters<typeof measureStats>[0]; measure: Measure; device: TravelDevice }) {
  const limits = device.config[measure];
  const stats = useMemo(() => measureStats(readings, measure), [readings, measure]);
  const model = useMemo(() => readingsChartModel(readings, measure, limits), [readings, measure, limits]);
  if (stats.count < 2) {
    return (
      <Text ta="center" c="dimmed" py="xl">
        {TRAVEL_MESSAGES.chartEmpty}
      </Text>
    );
  }
  const format = MEASURE_FORMAT[measure];
  const figures = [
    { label: 'Máxima', value: format(stats.max) },
    { label: 'Mínima', value: format(stats.min) },
  ];
  return <MeasureChartPanel figures={figures} note={pluralize(stats.count, 'leitura', 'leituras')} model={model} measure={measure} testId="graph-stats" />;
}
