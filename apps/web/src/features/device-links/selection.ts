import { pluralize } from '../../lib/format';

/** The counter of /add-beacons: "item/itens selecionado(s)". */
export function selectionCounter(count: number): string {
  return pluralize(count, 'item selecionado', 'itens selecionados');
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** "Buscar dispositivo": a device matches by MAC or by name, whatever the case (and accents). */
export function matchesDeviceSearch(device: { name: string; mac: string }, search: string): boolean {
  const needle = fold(search.trim());
  if (!needle) return true;
  return fold(device.name).includes(needle) || device.mac.toLowerCase().includes(needle) || device.mac.replace(/:/g, '').toLowerCase().includes(needle.replace(/[:-]/g, ''));
}
