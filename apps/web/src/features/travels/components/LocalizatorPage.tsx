import '@mantine/core/styles/Tabs.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Paper, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { LocalizatorParam, TravelStatus, type Travel, type TravelDevice, type z } from '@sentinela/contract';
import { IconAlertCircle, IconLinkOff, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { useMediaQuery } from '@mantine/hooks';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import type { ExportFormat } from '../../../components/report-export/request-export';
import { useReportExport } from '../../../components/report-export/export-provider';
import type { TravelAccess } from '../api/get-device-history';
import { useLocalizator } from '../api/get-localizator';
import { ColourMemory } from '../../../components/device-state/colour-state';
import { useTravelLive } from '../live/use-travel-live';
import { TRACKING_MESSAGES, TRAVEL_MESSAGES } from '../messages';
import '../styles';
import { DeviceCards } from './DeviceCards';
import { GraphModal } from './GraphModal';
import { HistoryPanel } from './HistoryPanel';
import { LiveBadge } from './LiveBadge';
import { MapFallback } from './MapFallback';
import { TravelSummary } from './TravelSummary';
import { DataLoading } from './DataLoading';

const TravelMap = lazy(() => import('./TravelMap'));

type LocalizatorForm = z.input<typeof LocalizatorParam>;

/**
 * /localizator "Localizador" (T5): a travel by its tracking code, open to everyone. Visitors see the map and the
 * devices; signed-in users also Registros. The code stays in the address (?cod=), so a link can be shared.
 */
export function LocalizatorPage() {
  const [params, setParams] = useSearchParams();
  const code = params.get('cod')?.trim() || null;
  const signedIn = useSession() !== null;
  const travel = useLocalizator(code, signedIn);
  // 410: the code was right but its link expired or was revoked (ADR 36); a travel shown before is dropped.
  const gone = travel.error instanceof ApiError && travel.error.status === 410;

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LocalizatorForm>({ resolver: zodResolver(LocalizatorParam), defaultValues: { cod: code ?? '' } });

  const onSubmit = handleSubmit(({ cod }) => {
    const next = cod.trim();
    if (next === code) void travel.refetch();
    else setParams({ cod: next });
  });

  return (
    <Stack gap="md">
      <Title order={2}>Localizador</Title>
      <Paper withBorder p="md" radius="md" component="form" onSubmit={onSubmit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            aria-label="Código do localizador"
            placeholder="Digite o código do localizador"
            required
            autoCapitalize="characters"
            autoComplete="off"
            style={{ flex: '1 1 240px' }}
            error={errors.cod?.message}
            {...register('cod')}
          />
          <Button type="submit" leftSection={<IconSearch size={16} />} loading={travel.isFetching}>
            Procurar
          </Button>
        </Group>
      </Paper>

      {travel.isError &&
        // The server's message says whether the link expired or was revoked.
        (gone ? (
          <Alert color="orange" title={TRACKING_MESSAGES.goneTitle} icon={<IconLinkOff />} data-testid="localizator-gone">
            {travel.error.message}
          </Alert>
        ) : (
          <Alert color="red" title={TRAVEL_MESSAGES.errorTitle} icon={<IconAlertCircle />} data-testid="localizator-error">
            {errorMessage(travel.error, TRAVEL_MESSAGES.listLoadError)}
          </Alert>
        ))}

      {code && travel.isPending ? (
        <DataLoading />
      ) : (
        <LocalizatorResult key={gone ? 'gone' : (travel.data?._id ?? 'none')} travel={gone ? null : (travel.data ?? null)} code={gone ? null : code} signedIn={signedIn} />
      )}
    </Stack>
  );
}

type ResultTab = 'map' | 'devices' | 'records';

function LocalizatorResult({ travel, code, signedIn }: { travel: Travel | null; code: string | null; signedIn: boolean }) {
  const [tab, setTab] = useState<ResultTab>('map');
  const [deviceMac, setDeviceMac] = useState<string | null>(null);
  const [chartsOf, setChartsOf] = useState<TravelDevice | null>(null);
  const [memory] = useState(() => new ColourMemory());
  const mapHeight = useMediaQuery('(max-width: 48em)') ? 340 : 440;
  // The public view follows the travel by its code, whoever looks.
  const live = useTravelLive(travel?._id ?? null, code ?? undefined);
  const recordsDevice = travel?.devices.find((device) => device.mac === deviceMac) ?? null;
  // A position-only code (ADR 36) brings no device cards: the page offers the map alone and says so.
  const positionOnly = travel?.view === 'position';
  // What the reader may open on the cards (ADR 72): a user who may see the travel reads it by id; the holder of a
  // code that shows readings (another enterprise's travel, a visitor) through the code's own routes.
  const access = useMemo<TravelAccess | null>(
    () => (!travel || travel.view === 'position' ? null : travel.view === 'full' ? { travelId: travel._id } : { travelId: travel._id, code: code ?? undefined, signedIn }),
    [travel, code, signedIn],
  );

  // Relatórios on the cards: signed-in profiles that may ask for reports (null for visitors).
  const reports = useReportExport();
  const reportDevice = useCallback(
    (device: TravelDevice, format: ExportFormat) => {
      if (access) void reports?.exportReport({ kind: 'travel-device-history', travelId: access.travelId, mac: device.mac, code: access.code }, format);
    },
    [access, reports],
  );

  const openHistory = useCallback((device: TravelDevice) => {
    setDeviceMac(device.mac);
    setTab('records');
  }, []);

  return (
    <>
      <Tabs value={tab} onChange={(value) => setTab(value === 'devices' || value === 'records' ? value : 'map')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="map">Mapa</Tabs.Tab>
          {!positionOnly && (
            <Tabs.Tab value="devices" disabled={!travel}>
              Dispositivos
            </Tabs.Tab>
          )}
          {signedIn && !positionOnly && (
            <Tabs.Tab value="records" disabled={!recordsDevice}>
              Registros
            </Tabs.Tab>
          )}
        </Tabs.List>

        <Tabs.Panel value="map" pt="md">
          <Stack gap="sm">
            {travel && <TravelSummary travel={travel} extra={<LiveBadge state={live} />} />}
            {travel && (positionOnly || travel.tracking.expires_at) && (
              <Text size="sm" c="dimmed" data-testid="localizator-link-note">
                {[positionOnly ? TRACKING_MESSAGES.positionOnly : null, travel.tracking.expires_at ? `${TRACKING_MESSAGES.validUntil} ${formatDateTime(travel.tracking.expires_at)}.` : null]
                  .filter(Boolean)
                  .join(' ')}
              </Text>
            )}
            <Suspense fallback={<MapFallback height={mapHeight} />}>
              <TravelMap travel={travel} showPath={false} height={mapHeight} />
            </Suspense>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="devices" pt="md">
          {travel && (
            <Stack gap="md">
              <TravelSummary travel={travel} extra={<LiveBadge state={live} />} />
              <DeviceCards
                travelId={travel._id}
                devices={travel.devices}
                memory={memory}
                live={travel.status !== TravelStatus.Finished}
                // Gráficos for whoever sees the readings; Histórico (Registros) and Relatórios for signed-in users, as the
                // documents have it; Configurações never shows here.
                onCharts={access ? setChartsOf : undefined}
                onHistory={access && signedIn ? openHistory : undefined}
                onReport={access && reports ? reportDevice : undefined}
              />
            </Stack>
          )}
        </Tabs.Panel>

        {signedIn && (
          <Tabs.Panel value="records" pt="md">
            {access && recordsDevice && <HistoryPanel access={access} device={recordsDevice} />}
          </Tabs.Panel>
        )}
      </Tabs>
      {access && <GraphModal access={access} device={chartsOf} onClose={() => setChartsOf(null)} />}
    </>
  );
}
