import { PHONE_QUERY } from '../components/DataTable';

/**
 * A 390 px phone until the end of the test (setup.ts puts the desktop back): the DataTable's phone query matches, so
 * lists with cards render them.
 */
export function asPhone(): void {
  const desktop = window.matchMedia;
  window.matchMedia = (query: string) => ({ ...desktop(query), matches: query === PHONE_QUERY });
}
