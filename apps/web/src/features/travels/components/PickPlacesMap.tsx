import type { LatLng } from '@sentinela/contract';
import { useMemo } from 'react';
import { BaseMap } from '../../../components/map/BaseMap';
import { ClickToPick, FrameOnce, InvalidateSizeOnShow, MAP_COLORS, PlaceMarker } from '../../../components/map/overlays';

interface PickPlacesMapProps {
  origin: LatLng | null;
  destiny: LatLng | null;
  onPick: (position: LatLng) => void;
}

/** The travel form's map: a click sets the origin or the destination. */
export default function PickPlacesMap({ origin, destiny, onPick }: PickPlacesMapProps) {
  const points = useMemo(() => [origin, destiny].filter((point): point is LatLng => point !== null), [origin, destiny]);
  // Frame the places typed in, once both are known; clicks do not move the map.
  const frameKey = origin && destiny ? 'both' : 'none';
  return (
    <BaseMap height={260} label="Mapa para marcar origem e destino">
      <InvalidateSizeOnShow />
      <ClickToPick onPick={onPick} />
      {frameKey === 'both' && <FrameOnce frameKey={frameKey} points={points} zoom={12} />}
      {origin && <PlaceMarker kind="origin" position={origin} color={MAP_COLORS.origin} label="Origem" />}
      {destiny && <PlaceMarker kind="destiny" position={destiny} color={MAP_COLORS.destiny} label="Destino" />}
    </BaseMap>
  );
}
