/** Hash tabs of /directions (spec 001 §2): #routes, #devices, #history. */
export type TravelTab = 'routes' | 'devices' | 'history';

export const TRAVEL_TABS: readonly TravelTab[] = ['routes', 'devices', 'history'];

export const TAB_LABELS: Record<TravelTab, string> = {
  routes: 'Lista de viagens',
  devices: 'Dispositivos',
  history: 'Histórico',
};

/** The tab of a location hash; the screen opens on #routes. */
export function tabFromHash(hash: string): TravelTab {
  const name = hash.replace(/^#/, '');
  return (TRAVEL_TABS as readonly string[]).includes(name) ? (name as TravelTab) : 'routes';
}

/**
 * Which tabs are disabled: devices until a travel is chosen, history until a device is chosen, and the routes tab
 * while on the devices or history tab (the documents' rule; the panels offer a way back to the list).
 */
export function disabledTabs(current: TravelTab, chosen: { travel: boolean; device: boolean }): Record<TravelTab, boolean> {
  return {
    routes: current !== 'routes',
    devices: !chosen.travel,
    history: !chosen.device,
  };
}

/**
 * The tab to show: a tab whose choice is missing (a reload on #devices, a travel that was dropped) falls back to
 * the list.
 */
export function effectiveTab(requested: TravelTab, chosen: { travel: boolean; device: boolean }): TravelTab {
  if (requested === 'history' && !chosen.device) return chosen.travel ? 'devices' : 'routes';
  if (requested === 'devices' && !chosen.travel) return 'routes';
  return requested;
}
