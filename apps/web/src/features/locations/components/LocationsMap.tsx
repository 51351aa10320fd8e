import { Badge, Group, Stack, Text } from '@mantine/core';
import type { LatLng, Location, PlacedDevice } from '@sentinela/contract';
import { useMemo } from 'react';
import { Marker, Popup, Tooltip } from 'react-leaflet';
import { COLOUR_STATE_COLOR, COLOUR_STATE_LABELS, type ShownState } from '../../../components/device-state/colour-state';
import { BaseMap } from '../../../components/map/BaseMap';
import { BRASILIA, LOCATION_ZOOM, LOCATIONS_ZOOM } from '../../../components/map/constants';
import { pinIcon } from '../../../components/map/markers';
import { FocusOn, InvalidateSizeOnShow } from '../../../components/map/overlays';
import { formatTemperature } from '../../../lib/format';
import { locationState, NOTHING_SHOWN, type DeviceShown } from '../location-state';

// Silent devices stay neutral but darker than "no limits", so a quiet site is told apart at a glance (ADR 0035).
const markerColor = (state: ShownState) => (state === 'silent' ? 'var(--mantine-color-gray-8)' : `var(--mantine-color-${COLOUR_STATE_COLOR[state]}-6)`);

interface LocationsMapProps {
  locations: readonly Location[];
  devices: readonly PlacedDevice[];
  states: ReadonlyMap<string, DeviceShown>;
  /** "Local": the row to centre on at zoom 18; `key` changes at each click, so a second click centres again. */
  focus: { key: number; position: LatLng } | null;
}

/** Every location (zoom 10, centred on Brasília), coloured by its devices' live state; each pin lists them. */
export function LocationsMap({ locations, devices, states, focus }: LocationsMapProps) {
  const byLocation = useMemo(() => {
    const map = new Map<string, PlacedDevice[]>();
    for (const device of devices) {
      if (!device.location_id) continue;
      const list = map.get(device.location_id) ?? [];
      list.push(device);
      map.set(device.location_id, list);
    }
    return map;
  }, [devices]);

  return (
    <BaseMap center={BRASILIA} zoom={LOCATIONS_ZOOM} height="clamp(260px, 45vh, 460px)" label="Mapa dos locais">
      <InvalidateSizeOnShow />
      <FocusOn focusKey={focus?.key ?? 0} position={focus?.position ?? null} zoom={LOCATION_ZOOM} />
      {locations.map((location) =>
        location.latitude === null || location.longitude === null ? null : (
          <LocationMarker
            key={location._id}
            location={location}
            position={[location.latitude, location.longitude]}
            devices={byLocation.get(location._id) ?? []}
            states={states}
          />
        ),
      )}
    </BaseMap>
  );
}

function LocationMarker({ location, position, devices, states }: { location: Location; position: LatLng; devices: PlacedDevice[]; states: ReadonlyMap<string, DeviceShown> }) {
  const state = locationState(devices.map((device) => (states.get(device._id) ?? NOTHING_SHOWN).state));
  const icon = useMemo(
    () => pinIcon('location', markerColor(state), position, { state, id: location._id }),
    [state, position, location._id],
  );
  return (
    <Marker position={position} icon={icon} title={location.name} alt={`${location.name}: ${COLOUR_STATE_LABELS[state]}`}>
      <Tooltip direction="top" offset={[0, -24]}>
        {location.name}
      </Tooltip>
      <Popup>
        <Stack gap={4} miw={180}>
          <Text fw={700} size="sm">
            {location.name}
          </Text>
          {devices.length === 0 && (
            <Text size="xs" c="dimmed">
              Nenhum dispositivo neste local.
            </Text>
          )}
          {devices.map((device) => {
            const { state: deviceState, silence } = states.get(device._id) ?? NOTHING_SHOWN;
            return (
              <Group key={device._id} gap={6} wrap="nowrap" justify="space-between" data-testid="location-device" data-state={deviceState}>
                <Text size="xs">{device.name}</Text>
                <Badge size="sm" variant="light" color={COLOUR_STATE_COLOR[deviceState]} title={COLOUR_STATE_LABELS[deviceState]}>
                  {silence ? silence.label : formatTemperature(device.temperature)}
                </Badge>
              </Group>
            );
          })}
        </Stack>
      </Popup>
    </Marker>
  );
}
