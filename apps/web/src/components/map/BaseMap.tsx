import type { LatLng } from '@sentinela/contract';
import 'leaflet/dist/leaflet.css';
import type { ReactNode } from 'react';
import { MapContainer, TileLayer } from 'react-leaflet';
import { useMapServices } from './config';
import { BRASILIA, DEFAULT_ZOOM, MAX_ZOOM } from './constants';
import './map.css';

interface BaseMapProps {
  center?: LatLng;
  zoom?: number;
  height: number | string;
  children?: ReactNode;
  /** Names the map for assistive technology and tests. */
  label: string;
}

/**
 * A Leaflet map with the configured tile server (default centre Brasília, zoom 12, max zoom 20). Each overlay is a
 * child component that adds and removes its own layer. Without internet the tiles stay blank and the rest works.
 */
export function BaseMap({ center = BRASILIA, zoom = DEFAULT_ZOOM, height, children, label }: BaseMapProps) {
  const services = useMapServices();
  return (
    <div role="region" aria-label={label} className="sentinela-map" style={{ height }}>
      <MapContainer center={center} zoom={zoom} maxZoom={MAX_ZOOM} style={{ height: '100%', width: '100%' }} scrollWheelZoom>
        {services && (
          <TileLayer url={services.tileUrl} attribution={services.tileAttribution} maxZoom={MAX_ZOOM} maxNativeZoom={19} />
        )}
        {children}
      </MapContainer>
    </div>
  );
}
