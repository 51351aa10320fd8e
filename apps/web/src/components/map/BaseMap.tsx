import type { LatLng } from '@sentinela/contract';
import 'leaflet/dist/leaflet.css';
import { useEffect, type ReactNode } from 'react';
import { AttributionControl, MapContainer, TileLayer, useMap, ZoomControl } from 'react-leaflet';
import { useMapServices } from './config';
import { BRASILIA, DEFAULT_ZOOM, MAX_ZOOM } from './constants';
import { MAP_TEXTS } from './texts';
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
 * Leaflet's default controls are replaced by the same ones with pt-BR texts (MAP_TEXTS).
 */
export function BaseMap({ center = BRASILIA, zoom = DEFAULT_ZOOM, height, children, label }: BaseMapProps) {
  const services = useMapServices();
  return (
    <div role="region" aria-label={label} className="sentinela-map" style={{ height }}>
      <MapContainer
        center={center}
        zoom={zoom}
        maxZoom={MAX_ZOOM}
        style={{ height: '100%', width: '100%' }}
        scrollWheelZoom
        zoomControl={false}
        attributionControl={false}
      >
        <ZoomControl zoomInTitle={MAP_TEXTS.zoomIn} zoomOutTitle={MAP_TEXTS.zoomOut} />
        <AttributionControl prefix={MAP_TEXTS.attributionPrefix} />
        <PopupCloseLabel />
        {services && (
          <TileLayer url={services.tileUrl} attribution={services.tileAttribution} maxZoom={MAX_ZOOM} maxNativeZoom={19} />
        )}
        {children}
      </MapContainer>
    </div>
  );
}

/** Leaflet writes "Close popup" on each popup's close button as it opens it; this renames it in pt-BR. */
function PopupCloseLabel() {
  const map = useMap();
  useEffect(() => {
    const rename = (event: { popup: { getElement(): HTMLElement | undefined } }) => {
      const button = event.popup.getElement()?.querySelector('.leaflet-popup-close-button');
      button?.setAttribute('aria-label', MAP_TEXTS.closePopup);
      button?.setAttribute('title', MAP_TEXTS.closePopup);
    };
    map.on('popupopen', rename);
    return () => {
      map.off('popupopen', rename);
    };
  }, [map]);
  return null;
}
