import '@mantine/core/styles/Menu.css';
import { ActionIcon, Card, Group, Menu, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import type { TravelDevice } from '@sentinela/contract';
import {
  IconChartLine,
  IconDotsVertical,
  IconDroplet,
  IconFileSpreadsheet,
  IconFileTypePdf,
  IconHistory,
  IconSettings,
} from '@tabler/icons-react';
import type { ExportFormat } from '../../../components/report-export/request-export';
import { formatCardDateTime, formatHumidity, formatTemperature } from '../../../lib/format';
import { batteryLevel } from '../../../components/device-state/battery';
import { BATTERY_ICONS, STATE_STYLE } from '../../../components/device-state/card-style';
import { COLOUR_STATE_LABELS, shownState, type ColourState } from '../../../components/device-state/colour-state';
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

const range = (min: number | null, max: number | null, format: (value: number | null) => string) =>
  min === null && max === null ? 'sem limites' : `${min === null ? '--' : format(min)} a ${max === null ? '--' : format(max)}`;

/** A device of a travel (T2): name, battery, temperature with its colour state, humidity, last update, menu. */
export function DeviceCard({ device, state: colourState, silence = null, onCharts, onHistory, onSettings, onReport }: DeviceCardProps) {
  const battery = BATTERY_ICONS[batteryLevel(device.battery.value)];
  const state = shownState(colourState, silence?.ms ?? null);
  const style = STATE_STYLE[state];
  const BatteryIcon = battery.icon;
  const StateIcon = style.icon;
  const hasMenu = !!(onCharts || onHistory || onSettings || onReport);

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="device-card"
      data-mac={device.mac}
      data-state={state}
      style={{ background: style.background, borderColor: style.border, borderWidth: state === 'none' ? 1 : 2 }}
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

        <Group justify="space-between" wrap="nowrap" align="center">
          <Tooltip label={COLOUR_STATE_LABELS[state]} withinPortal>
            <Group gap={6} wrap="nowrap" data-testid="card-temperature">
              <ThemeIcon variant="light" color={style.color} size="lg" radius="xl" aria-label={COLOUR_STATE_LABELS[state]}>
                <StateIcon size={20} aria-hidden />
              </ThemeIcon>
              <Text fw={700} fz={26} lh={1} c={state === 'none' ? undefined : state === 'silent' ? 'dimmed' : `${style.color}.8`}>
                {formatTemperature(device.temperature.value)}
              </Text>
            </Group>
          </Tooltip>
          <Group gap={4} wrap="nowrap" data-testid="card-battery" data-level={batteryLevel(device.battery.value)}>
            <ThemeIcon variant="transparent" color={battery.color} size="md" aria-hidden>
              <BatteryIcon size={22} aria-hidden />
            </ThemeIcon>
            <Text size="sm" fw={600} aria-label="Bateria">
              {device.battery.value === null ? '--' : `${Math.round(device.battery.value)}%`}
            </Text>
          </Group>
        </Group>

        <Group gap={6} wrap="nowrap" data-testid="card-humidity">
          <IconDroplet size={18} color="var(--mantine-color-blue-6)" aria-hidden />
          <Text size="sm">
            Umidade: <b>{formatHumidity(device.humidity.value)}</b>
          </Text>
        </Group>

        <Text size="xs" c="dimmed">
          Limites: {range(device.config.temperature.min, device.config.temperature.max, formatTemperature)} ·{' '}
          {range(device.config.humidity.min, device.config.humidity.max, formatHumidity)}
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
