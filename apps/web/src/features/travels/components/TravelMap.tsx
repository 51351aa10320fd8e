import { Group, Loader, Text } from '@mantine/core';
import type { LatLng, Travel } from '@sentinela/contract';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { BaseMap } from '../../../components/map/BaseMap';
import {
  FocusOn,
  FrameOnce,
  InvalidateSizeOnShow,
  LastPositionMarker,
  MAP_COLORS,
  PlaceMarker,
  PlannedRouteLayer,
  TravelledPathLayer,
} from '../../../components/map/overlays';
import { ROUTE_MESSAGES, usePlannedRoute } from '../../../components/map/routing';
import { useTravelLocations } from '../api/get-locations';
import { TRAVEL_MESSAGES } from '../messages';

export interface MapFocus {
  /** Changes each time the map should centre again. */
  key: number;
  position: LatLng;
  label: string;
}

interface TravelMapProps {
  travel: Travel | null;
  /** The travelled path (GET /locations): signed-in screens only; the public view has no such call. */
  showPath: boolean;
  focus?: MapFocus | null;
  height: number | string;
  /** "Trajeto" modal: also says when the travelled path cannot be loaded. */
  reportPathErrors?: boolean;
  /**
   * What the map first shows: the last position at the tracking zoom (following a travel), or the whole route
   * (the Trajeto modal).
   */
  initialView?: 'position' | 'route';
}

/**
 * A travel on the map (T7): origin and destination pins, the planned driving route, the travelled path, and the last
 * position, which follows live updates (marker moves, map centres at zoom 15). Without a travel: Brasília and
 * "Trajeto não selecionado".
 */
export default function TravelMap({
  travel,
  showPath,
  focus = null,
  height,
  reportPathErrors = false,
  initialView = 'position',
}: TravelMapProps) {
  const origin = travel?.origin.location ?? null;
  const destiny = travel?.destiny.location ?? null;
  const route = usePlannedRoute(origin, destiny);
  const locations = useTravelLocations(travel?._id ?? null, showPath);
  const path = useMemo(() => (locations.data ?? []).map((point) => point.location), [locations.data]);
  const last = travel?.last_position ?? null;

  const frame = useMemo<LatLng[]>(() => {
    if (last && initialView === 'position') return [last];
    return [origin, destiny, last].filter((point): point is LatLng => point !== null);
  }, [last, origin, destiny, initialView]);

  return (
    <div data-testid="travel-map" data-travel={travel?._id ?? ''} data-route={route.data?.kind ?? (route.isPending ? 'loading' : 'none')}>
      {/* Its own stacking context: the map's panes and the note stay below modals and menus. */}
      <div style={{ position: 'relative', zIndex: 0, isolation: 'isolate' }}>
        <BaseMap height={height} label="Mapa da viagem">
          <InvalidateSizeOnShow />
          {travel && <FrameOnce frameKey={travel._id} points={frame} />}
          {route.data && <PlannedRouteLayer route={route.data} />}
          {showPath && <TravelledPathLayer points={path} />}
          {origin && <PlaceMarker kind="origin" position={origin} color={MAP_COLORS.origin} label={`Origem: ${travel?.origin.address ?? ''}`} />}
          {destiny && <PlaceMarker kind="destiny" position={destiny} color={MAP_COLORS.destiny} label={`Destino: ${travel?.destiny.address ?? ''}`} />}
          {last && <LastPositionMarker position={last} label="Última posição" />}
          {focus && (
            <>
              <FocusOn focusKey={focus.key} position={focus.position} />
              <PlaceMarker kind="reading" position={focus.position} color={MAP_COLORS.reading} label={focus.label} />
            </>
          )}
        </BaseMap>
        {!travel && (
          <Text
            pos="absolute"
            top={12}
            left="50%"
            style={{ transform: 'translateX(-50%)', zIndex: 500, pointerEvents: 'none', whiteSpace: 'nowrap' }}
            bg="white"
            px="sm"
            py={4}
            fw={600}
            size="sm"
            c="dimmed"
            bdrs="sm"
          >
            {TRAVEL_MESSAGES.noTravel}
          </Text>
        )}
      </div>
      {travel && (
        <Group gap="md" mt={6} wrap="wrap">
          <Legend color={MAP_COLORS.origin} label="Origem" pin />
          <Legend color={MAP_COLORS.destiny} label="Destino" pin />
          {last && <Legend color={MAP_COLORS.position} label="Última posição" pin />}
          <Legend color={MAP_COLORS.route} label="Rota planejada" dashed={route.data?.kind !== 'road'} />
          {showPath && <Legend color={MAP_COLORS.path} label="Trajeto percorrido" />}
          {route.isFetching && <Loader size={14} aria-label="Carregando rota..." />}
        </Group>
      )}
      {route.data?.kind === 'approximate' && (
        <Note icon={<IconInfoCircle size={16} />} text={ROUTE_MESSAGES.approximate} color="dimmed" />
      )}
      {route.data?.kind === 'failed' && (
        <Note icon={<IconAlertTriangle size={16} />} text={ROUTE_MESSAGES.failed} color="orange.8" />
      )}
      {reportPathErrors && locations.isError && (
        <Note icon={<IconAlertTriangle size={16} />} text={TRAVEL_MESSAGES.routeLoadError} color="red.7" />
      )}
    </div>
  );
}

function Legend({ color, label, dashed = false, pin = false }: { color: string; label: string; dashed?: boolean; pin?: boolean }) {
  return (
    <Group gap={6} wrap="nowrap">
      {pin ? (
        <span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: '50%', background: color }} />
      ) : (
        <span
          aria-hidden
          style={{ display: 'inline-block', width: 22, height: 0, borderTop: `3px ${dashed ? 'dashed' : 'solid'} ${color}` }}
        />
      )}
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}

function Note({ icon, text, color }: { icon: React.ReactNode; text: string; color: string }) {
  return (
    <Group gap={6} mt={4} wrap="nowrap" c={color} role="status">
      {icon}
      <Text size="sm" c={color}>
        {text}
      </Text>
    </Group>
  );
}
