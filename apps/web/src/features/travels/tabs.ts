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

/**
 * The chosen travel and device live in the URL's query (`?travel={id}&device={mac}`), beside the documents' hash tab,
 * so a reload on #devices or #history, or a link shared from there, opens the same travel and device (the house rule:
 * what a view shows is in its URL).
 */
export interface TravelSelection {
  travelId: string | null;
  deviceMac: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAC = /^[0-9A-F]{2}(?::[0-9A-F]{2}){5}$/i;

/** The selection a query string names; a malformed id or MAC (a hand-edited link) is no selection. */
export function selectionFromSearch(search: string): TravelSelection {
  const query = new URLSearchParams(search);
  const travel = query.get('travel')?.trim() ?? '';
  const device = query.get('device')?.trim().toUpperCase() ?? '';
  const travelId = UUID.test(travel) ? travel.toLowerCase() : null;
  return { travelId, deviceMac: travelId && MAC.test(device) ? device : null };
}

/** The query string of a selection, keeping any other parameter of `current`. */
export function searchWithSelection(current: string, selection: TravelSelection): string {
  const query = new URLSearchParams(current);
  query.delete('travel');
  query.delete('device');
  if (selection.travelId) query.set('travel', selection.travelId);
  if (selection.travelId && selection.deviceMac) query.set('device', selection.deviceMac);
  // A colon needs no escaping in a query: MACs stay readable in a shared link.
  const text = query.toString().replace(/%3A/gi, ':');
  return text ? `?${text}` : '';
}
