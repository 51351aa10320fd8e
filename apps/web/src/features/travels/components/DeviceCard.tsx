import '@mantine/core/styles/Menu.css';
import { ActionIcon, Card, Group, Menu, Stack, Text } from '@mantine/core';
import type { TravelDevice } from '@sentinela/contract';
import {
  IconChartLine,
  IconDotsVertical,
  IconFileSpreadsheet,
  IconFileTypePdf,
  IconHistory,
  IconSettings,
} from '@tabler/icons-react';
import type { ExportFormat } from '../../../components/report-export/request-export';
import { formatCardDateTime, formatHumidityRange, formatTemperatureRange } from '../../../lib/format';
import { CardReadings, cardFrameStyle } from '../../../components/device-state/CardReadings';
import { shownState, type ColourState } from '../../../components/device-state/colour-state';
import type { Silence } from '../../../components/device-state/freshness';

export interface DeviceCardActions {
  onCharts?: (device: TravelDevice) => void;
  onHistory?: (device: TravelDevice) => void;
  /** Configurações: absent on /localizator. */
  onSettings?: (device: TravelDevice) => void;
  /** Relatórios PDF and EXCEL of the device within the travel (R1): for profiles that may ask for reports. */
  onReport?: (device: TravelDevice, format: ExportFormat) => void;
}

interface DeviceCardProps extends DeviceCardActions {
  device: TravelDevice;
  state: ColourState;
  /** Set once the device has gone quiet: the card turns neutral and says for how long. */
  silence?: Silence | null;
}

/** A device of a travel (T2): name, battery, temperature with its colour state, humidity, last update, menu. */
export function DeviceCard({ device, state: colourState, silence = null, onCharts, onHistory, onSettings, onReport }: DeviceCardProps) {
  const state = shownState(colourState, silence?.ms ?? null);
  const hasMenu = !!(onCharts || onHistory || onSettings || onReport);

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="device-card"
      data-mac={device.mac}
      data-state={state}
      style={cardFrameStyle(state)}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Text fw={700} truncate="end" title={device.name}>
              {device.name}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {device.mac}
            </Text>
          </div>
          {hasMenu && (
            <Menu position="bottom-end" withinPortal shadow="md">
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`Ações de ${device.name}`}>
                  <IconDotsVertical size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {onCharts && (
                  <Menu.Item leftSection={<IconChartLine size={16} />} onClick={() => onCharts(device)}>
                    Gráficos
                  </Menu.Item>
                )}
                {onHistory && (
                  <Menu.Item leftSection={<IconHistory size={16} />} onClick={() => onHistory(device)}>
                    Histórico
                  </Menu.Item>
                )}
                {onSettings && (
                  <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => onSettings(device)}>
                    Configurações
                  </Menu.Item>
                )}
                {onReport && (
                  <>
                    <Menu.Divider />
                    <Menu.Label>Relatórios</Menu.Label>
                    <Menu.Item leftSection={<IconFileTypePdf size={16} />} onClick={() => onReport(device, 'pdf')}>
                      PDF
                    </Menu.Item>
                    <Menu.Item leftSection={<IconFileSpreadsheet size={16} />} onClick={() => onReport(device, 'excel')}>
                      EXCEL
                    </Menu.Item>
                  </>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>

        <CardReadings state={state} temperature={device.temperature.value} humidity={device.humidity.value} battery={device.battery.value} temperatureSize={26} />

        <Text size="xs" c="dimmed">
          Limites: {formatTemperatureRange(device.config.temperature.min, device.config.temperature.max, 'sem limites')} ·{' '}
          {formatHumidityRange(device.config.humidity.min, device.config.humidity.max, 'sem limites')}
        </Text>
        {silence && (
          <Text size="sm" fw={600} c="gray.7" data-testid="card-silence">
            {silence.label}
          </Text>
        )}
        <Text size="xs" c="dimmed" data-testid="card-updated">
          Última atualização: {formatCardDateTime(device.last_update_date)}
        </Text>
      </Stack>
    </Card>
  );
}
