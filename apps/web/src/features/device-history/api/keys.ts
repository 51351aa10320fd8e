/**
 * Query keys of the device-history screen. Device keys sit under ['devices'] so that a change made here
 * (rename, limits) also refreshes the device lists of /my-devices, which live under ['devices', 'list'].
 */
export const deviceHistoryKeys = {
  device: (id: string) => ['devices', 'detail', id] as const,
  events: (mac: string) => ['devices', 'events', mac] as const,
  deviceLists: ['devices', 'list'] as const,
  calibrations: (id: string) => ['devices', 'calibrations', id] as const,
  history: (mac: string) => ['history', mac] as const,
  page: (mac: string, query: string, page: number) => ['history', mac, 'page', query, page] as const,
  series: (mac: string, query: string, points: number) => ['history', mac, 'series', query, points] as const,
  coverage: (mac: string, query: string) => ['history', mac, 'coverage', query] as const,
  alarms: (mac: string) => ['alarms', mac] as const,
  deliveries: (mac: string, alarmId: string) => ['alarms', mac, 'deliveries', alarmId] as const,
};
