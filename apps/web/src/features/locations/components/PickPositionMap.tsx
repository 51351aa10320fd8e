import type { LatLng } from '@sentinela/contract';
import { BaseMap } from '../../../components/map/BaseMap';
import { LOCATION_ZOOM, LOCATIONS_ZOOM } from '../../../components/map/constants';
import { ClickToPick, FocusOn, FrameOnce, InvalidateSizeOnShow, MAP_COLORS, PlaceMarker } from '../../../components/map/overlays';

interface PickPositionMapProps {
  position: LatLng | null;
  onPick: (position: LatLng) => void;
  /** Changes when a found address moves the position: the map centres on it. */
  focusKey: number;
  /** The position the form opened with (an edited location): the map opens centred on it. */
  initial: LatLng | null;
}

/** The location form's map: a click sets the position; an edited location opens centred on its own. */
export default function PickPositionMap({ position, onPick, focusKey, initial }: PickPositionMapProps) {
  return (
    <BaseMap height={260} zoom={LOCATIONS_ZOOM} label="Mapa para marcar a posição do local">
      <InvalidateSizeOnShow />
      <ClickToPick onPick={onPick} />
      {initial && <FrameOnce frameKey="initial" points={[initial]} zoom={LOCATION_ZOOM - 2} />}
      {focusKey > 0 && <FocusOn focusKey={focusKey} position={position} zoom={LOCATION_ZOOM - 2} />}
      {position && <PlaceMarker kind="location" position={position} color={MAP_COLORS.destiny} label="Posição do local" />}
    </BaseMap>
  );
}
