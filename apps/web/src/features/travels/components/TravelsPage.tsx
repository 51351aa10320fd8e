import '@mantine/core/styles/Tabs.css';
import { Alert, Box, Button, Group, Stack, Tabs, Title } from '@mantine/core';
import { can, TravelStatus, type Travel, type TravelDevice, type TravelReading } from '@sentinela/contract';
import { IconAlertCircle, IconArrowLeft, IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useMediaQuery } from '@mantine/hooks';
import { formatShortDateTime } from '../../../lib/format';
import { useLivePresence } from '../../../lib/live-presence';
import { useRequiredSession } from '../../../lib/session';
import type { ExportFormat } from '../../../components/report-export/request-export';
import { useReportExport } from '../../../components/report-export/export-provider';
import { useTravel } from '../api/get-travel';
import { ColourMemory } from '../../../components/device-state/colour-state';
import { useTravelLive } from '../live/use-travel-live';
import { TRAVEL_MESSAGES } from '../messages';
import {
  disabledTabs,
  effectiveTab,
  searchWithSelection,
  selectionFromSearch,
  TAB_LABELS,
  tabFromHash,
  TRAVEL_TABS,
  type TravelSelection,
  type TravelTab,
} from '../tabs';
import '../styles';
import { OnceOpened } from '../../../components/OnceOpened';
import { MapFallback } from './MapFallback';
import { RoutesTable } from './RoutesTable';
import type { MapFocus } from './TravelMap';
import { DataLoading } from './DataLoading';

// Only the routes table is needed to paint the screen's first rows: the map, the other tabs' contents and the modals
// (the travel form with its multi-select and change-reason field, the charts, the device settings) are chunks loaded
// when shown or opened (ADR 0086).
const TravelMap = lazy(() => import('./TravelMap'));
const TravelSummary = lazy(() => import('./TravelSummary').then((module) => ({ default: module.TravelSummary })));
const LiveBadge = lazy(() => import('./LiveBadge').then((module) => ({ default: module.LiveBadge })));
const DeviceCards = lazy(() => import('./DeviceCards').then((module) => ({ default: module.DeviceCards })));
const TrackingLinkPanel = lazy(() => import('./TrackingLinkPanel').then((module) => ({ default: module.TrackingLinkPanel })));
const HistoryPanel = lazy(() => import('./HistoryPanel').then((module) => ({ default: module.HistoryPanel })));
const GraphModal = lazy(() => import('./GraphModal').then((module) => ({ default: module.GraphModal })));
const EditTravelDeviceModal = lazy(() => import('./EditTravelDeviceModal').then((module) => ({ default: module.EditTravelDeviceModal })));
const RouteModal = lazy(() => import('./RouteModal').then((module) => ({ default: module.RouteModal })));
const TravelFormModal = lazy(() => import('./TravelFormModal').then((module) => ({ default: module.TravelFormModal })));

/** The anchor of the map below the tabs ("Localização" scrolls here). */
export const MAP_ANCHOR = 'mapa';

/** /directions "Viagens" (T1–T4, T6, T9). */
export function TravelsPage() {
  const { user } = useRequiredSession();
  const canManage = can(user.profile._id, 'travels:manage');
  const location = useLocation();
  const navigate = useNavigate();

  // The chosen travel and device are in the URL (?travel=…&device=…), so a reload or a shared link keeps them.
  const { travelId, deviceMac } = selectionFromSearch(location.search);
  const [routeOf, setRouteOf] = useState<Travel | null>(null);
  const [creating, setCreating] = useState(false);
  // The list holds whole travels (devices included), kept current by the live updates: the form starts from it.
  const [editing, setEditing] = useState<Travel | null>(null);
  const [chartsOf, setChartsOf] = useState<TravelDevice | null>(null);
  const [settingsOf, setSettingsOf] = useState<TravelDevice | null>(null);
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const [memory] = useState(() => new ColourMemory());
  const reports = useReportExport();
  const mapHeight = useMediaQuery('(max-width: 48em)') ? 340 : 440;

  const travel = useTravel(travelId);
  const live = useTravelLive(travelId);
  // A travel followed on screen keeps the session alive while the tab is in the foreground (issue 11).
  useLivePresence(travelId !== null);
  const historyDevice = travel.data?.devices.find((device) => device.mac === deviceMac) ?? null;
  // While the travel loads, a device named in the URL counts as chosen, so a reload on #history stays there; once
  // loaded, only a device of the travel does.
  const chosen = { travel: travelId !== null, device: deviceMac !== null && (travel.isPending || historyDevice !== null) };
  const tab = effectiveTab(tabFromHash(location.hash), chosen);
  const disabled = disabledTabs(tab, chosen);

  /** Goes to a tab with a selection; a navigation with only a hash would drop the query. */
  const show = useCallback(
    (next: TravelTab, selection: TravelSelection, replace = false) =>
      void navigate({ search: searchWithSelection(location.search, selection), hash: `#${next}` }, { replace }),
    [navigate, location.search],
  );

  // The URL always names what is shown: the screen opens on #routes, a tab whose choice is gone (a travel that is
  // not there, a device no longer in it) falls back, and a device that is not in the travel leaves the query.
  const staleDevice = deviceMac !== null && !chosen.device;
  useEffect(() => {
    if (location.hash !== `#${tab}` || staleDevice) show(tab, { travelId, deviceMac: staleDevice ? null : deviceMac }, true);
  }, [location.hash, tab, staleDevice, travelId, deviceMac, show]);

  const goTo = useCallback((next: TravelTab) => show(next, { travelId, deviceMac }), [show, travelId, deviceMac]);

  const openDevices = useCallback(
    (row: Travel) => {
      setFocus(null);
      show('devices', { travelId: row._id, deviceMac: null });
    },
    [show],
  );
  const openHistory = useCallback((device: TravelDevice) => show('history', { travelId, deviceMac: device.mac }), [show, travelId]);
  const reportDevice = useCallback(
    (device: TravelDevice, format: ExportFormat) => {
      if (travelId) void reports?.exportReport({ kind: 'travel-device-history', travelId, mac: device.mac }, format);
    },
    [travelId, reports],
  );
  const locate = useCallback((reading: TravelReading) => {
    if (reading.lat === null || reading.lng === null) return;
    setFocus({ key: Date.now(), position: [reading.lat, reading.lng], label: `Leitura de ${formatShortDateTime(reading.createdAt)}` });
    document.getElementById(MAP_ANCHOR)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, []);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Viagens</Title>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Nova viagem
          </Button>
        )}
      </Group>

      <Tabs value={tab} onChange={(value) => value && goTo(tabFromHash(value))} keepMounted={false}>
        <Tabs.List>
          {TRAVEL_TABS.map((name) => (
            <Tabs.Tab key={name} value={name} disabled={disabled[name]}>
              {TAB_LABELS[name]}
            </Tabs.Tab>
          ))}
        </Tabs.List>

        <Tabs.Panel value="routes" pt="md">
          <RoutesTable selectedId={travelId} onRoute={setRouteOf} onDevices={openDevices} onEdit={setEditing} canManage={canManage} />
        </Tabs.Panel>

        <Tabs.Panel value="devices" pt="md">
          {/* One boundary for the summary and the cards: they appear together, so the summary's chunk landing late
              no longer pushes the cards down under a click that was meant for them. */}
          <Suspense fallback={<DataLoading />}>
            <Stack gap="md">
              <Group justify="space-between" align="flex-start" wrap="wrap">
                {travel.data ? <TravelSummary travel={travel.data} extra={<LiveBadge state={live} />} /> : <span />}
                <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={() => goTo('routes')}>
                  Voltar à lista de viagens
                </Button>
              </Group>
              {travel.isPending ? (
                <DataLoading />
              ) : travel.isError ? (
                <Alert color="red" title={TRAVEL_MESSAGES.errorTitle} icon={<IconAlertCircle />}>
                  {TRAVEL_MESSAGES.devicesLoadError}
                </Alert>
              ) : (
                <>
                  <DeviceCards
                    travelId={travel.data._id}
                    devices={travel.data.devices}
                    memory={memory}
                    live={travel.data.status !== TravelStatus.Finished}
                    onCharts={setChartsOf}
                    onHistory={openHistory}
                    onSettings={canManage ? setSettingsOf : undefined}
                    onReport={reports ? reportDevice : undefined}
                  />
                  <TrackingLinkPanel travel={travel.data} canManage={canManage} />
                </>
              )}
            </Stack>
          </Suspense>
        </Tabs.Panel>

        <Tabs.Panel value="history" pt="md">
          {travelId && historyDevice ? (
            <Stack gap="sm">
              <Group justify="flex-end">
                <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={() => goTo('devices')}>
                  Voltar aos dispositivos
                </Button>
              </Group>
              <Suspense fallback={<DataLoading />}>
                <HistoryPanel access={{ travelId }} device={historyDevice} onLocate={locate} />
              </Suspense>
            </Stack>
          ) : null}
        </Tabs.Panel>
      </Tabs>

      <Box component="section" id={MAP_ANCHOR} aria-label="Mapa" style={{ scrollMarginTop: 16 }}>
        <Suspense fallback={<MapFallback height={mapHeight} />}>
          <TravelMap travel={travel.data ?? null} showPath focus={focus} height={mapHeight} />
        </Suspense>
      </Box>

      {travelId && (
        <OnceOpened opened={chartsOf !== null}>
          <GraphModal access={{ travelId }} device={chartsOf} onClose={() => setChartsOf(null)} />
        </OnceOpened>
      )}
      {travelId && (
        <OnceOpened opened={settingsOf !== null}>
          <EditTravelDeviceModal travelId={travelId} device={settingsOf} onClose={() => setSettingsOf(null)} />
        </OnceOpened>
      )}
      <OnceOpened opened={routeOf !== null}>
        <RouteModal travel={routeOf} onClose={() => setRouteOf(null)} />
      </OnceOpened>
      <OnceOpened opened={creating}>
        <TravelFormModal opened={creating} onClose={() => setCreating(false)} />
      </OnceOpened>
      <OnceOpened opened={editing !== null}>
        <TravelFormModal opened={editing !== null} travel={editing ?? undefined} onClose={() => setEditing(null)} />
      </OnceOpened>
    </Stack>
  );
}
