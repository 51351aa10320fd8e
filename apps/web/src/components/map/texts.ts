/**
 * Leaflet's own words in pt-BR (issue 26): its controls ship in English ("Zoom in", "Zoom out", "Close popup", and
 * "A JavaScript library for interactive maps" on the attribution's Leaflet link). Every map is a BaseMap, which
 * builds its controls with these, so no map of the app shows Leaflet's defaults.
 */
export const MAP_TEXTS = {
  zoomIn: 'Aproximar',
  zoomOut: 'Afastar',
  closePopup: 'Fechar',
  /** The attribution's prefix: Leaflet's link with a pt-BR title (without Leaflet's flag icon). */
  attributionPrefix: '<a href="https://leafletjs.com" title="Uma biblioteca JavaScript para mapas interativos" target="_blank" rel="noopener noreferrer">Leaflet</a>',
} as const;
