import '@mantine/core/styles/Tabs.css';
import { Alert, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { can, z } from '@sentinela/contract';
import { IconAlertCircle, IconHistory, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { paths, withQuery } from '../../../lib/paths';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY } from '../../../lib/format';
import { useLivePresence } from '../../../lib/live-presence';
import { useRequiredSession } from '../../../lib/session';
import { ExportButtons } from '../../../components/report-export/ExportControls';
import { CalibrationBadge } from '../../../components/CalibrationBadge';
import { useDevice } from '../api/get-device';
import { HISTORY_MESSAGES } from '../messages';
import '../styles';
import { HISTORY_TABS, useHistorySearch, type HistoryTab } from '../use-history-search';
import { AlarmsTab } from './AlarmsTab';
import { CalibrationTab } from './CalibrationTab';
import { ChartTab } from './ChartTab';
import { CoveragePanel } from './CoveragePanel';
import { DeviceConfigModal } from './DeviceConfigModal';
import { EventsTab } from './EventsTab';
import { HistoryFilters } from './HistoryFilters';
import { ReadingsTab } from './ReadingsTab';

/** Navigation state the devices tables pass along with the Histórico link (spec 001). */
const NavigationState = z.object({ name: z.string(), model: z.string().nullable() });

const TAB_LABELS: Record<HistoryTab, string> = { dados: 'Dados', grafico: 'Gráfico', eventos: 'Eventos', alarmes: 'Alarmes', calibracao: 'Calibração' };

/** /device-history/{mac}/{id}: readings, charts, events and alarms of one device (D3, D4, D6, D7). */
export function DeviceHistoryPage() {
  const { mac = '', id = '' } = useParams();
  const { user } = useRequiredSession();
  const location = useLocation();
  const navigation = NavigationState.safeParse(location.state);
  // The header comes from the navigation state at once; after a reload (no state) from the device itself.
  const device = useDevice(id);
  // A device watched on screen keeps the session alive while the tab is in the foreground (issue 11).
  useLivePresence();
  const name = device.data?.name ?? (navigation.success ? navigation.data.name : null);
  const model = device.data ? device.data.model : navigation.success ? navigation.data.model : null;
  const deviceMac = device.data?.mac ?? mac.toUpperCase();

  const { filter, filterQuery, filterKey, tab, page, applyFilter, setTab, setPage } = useHistorySearch();
  const [configuring, setConfiguring] = useState(false);
  const canConfigure = can(user.profile._id, 'devices:configure');
  const canAudit = can(user.profile._id, 'audit-trail:read');
  // X12: the certificates are the administrators' (the badge in the header is for everyone who sees the device).
  const canCalibrate = can(user.profile._id, 'calibrations:manage');
  const tabs = HISTORY_TABS.filter((value) => value !== 'calibracao' || canCalibrate);
  const showFilters = tab === 'dados' || tab === 'grafico';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={2}>Histórico</Title>
          <Group gap="lg" style={{ rowGap: 2 }} data-testid="device-header">
            <HeaderItem label="Nome" value={name ?? (device.isPending ? 'Carregando...' : EMPTY)} />
            <HeaderItem label="Número de série" value={model || EMPTY} />
            <HeaderItem label="Endereço Mac" value={deviceMac} />
            <CalibrationBadge dueAt={device.data?.calibration_due_at} />
          </Group>
        </Stack>
        <Group gap="xs">
          {canAudit && (
            // X11: who changed this device, its limits, links and alarms, and why.
            <Button component={Link} variant="default" leftSection={<IconHistory size={16} />} to={withQuery(paths.auditTrail, { entity_id: id })}>
              Trilha de auditoria
            </Button>
          )}
          {canConfigure && (
            <Button
              variant="light"
              leftSection={<IconSettings size={16} />}
              onClick={() => setConfiguring(true)}
              disabled={!device.data}
            >
              Configurações
            </Button>
          )}
        </Group>
      </Group>

      {device.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(device.error, HISTORY_MESSAGES.deviceLoadError)}
        </Alert>
      )}

      <Tabs value={tabs.includes(tab) ? tab : 'dados'} onChange={(value) => setTab(tabs.find((t) => t === value) ?? 'dados')} keepMounted={false}>
        <Tabs.List>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {TAB_LABELS[value]}
            </Tabs.Tab>
          ))}
        </Tabs.List>

        {showFilters && (
          <Stack gap="xs" mt="md">
            <HistoryFilters key={filterKey} filter={filter} onApply={applyFilter} />
            <ExportButtons label="Exportar leituras filtradas:" target={{ kind: 'device-history', mac, filterQuery }} />
            <CoveragePanel mac={mac} filterQuery={filterQuery} />
          </Stack>
        )}

        <Tabs.Panel value="dados" pt="md">
          <ReadingsTab mac={mac} filterQuery={filterQuery} page={page} onPageChange={setPage} />
        </Tabs.Panel>
        <Tabs.Panel value="grafico" pt="md">
          <ChartTab mac={mac} filterQuery={filterQuery} />
        </Tabs.Panel>
        <Tabs.Panel value="eventos" pt="md">
          <EventsTab mac={mac} />
        </Tabs.Panel>
        <Tabs.Panel value="alarmes" pt="md">
          <AlarmsTab mac={mac} />
        </Tabs.Panel>
        {canCalibrate && (
          <Tabs.Panel value="calibracao" pt="md">
            <CalibrationTab deviceId={id} deviceName={name} />
          </Tabs.Panel>
        )}
      </Tabs>

      {canConfigure && (
        <DeviceConfigModal device={device.data ?? null} opened={configuring} onClose={() => setConfiguring(false)} />
      )}
    </Stack>
  );
}

function HeaderItem({ label, value }: { label: string; value: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed" size="sm">
        {label}:{' '}
      </Text>
      <Text span fw={600} size="sm">
        {value}
      </Text>
    </Text>
  );
}
