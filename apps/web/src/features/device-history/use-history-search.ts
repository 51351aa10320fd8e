import { useCallback, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { filterFromSearch, filterToApiQuery, filterToSearch, type HistoryFilterState } from './filter';

export const HISTORY_TABS = ['dados', 'grafico', 'eventos', 'alarmes', 'calibracao'] as const;
export type HistoryTab = (typeof HISTORY_TABS)[number];

const isTab = (value: string | null): value is HistoryTab => (HISTORY_TABS as readonly (string | null)[]).includes(value);

/**
 * The screen's state in the URL query (shareable, restored on reload): the applied filter under the API's names,
 * the tab and the Dados page. The navigation state (device name and model) is carried along on every change.
 */
export function useHistorySearch() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  // Without dates in the URL, the default window ends when the screen opened, so pages stay put while browsing.
  const [openedAt] = useState(() => new Date());

  const search = params.toString();
  const filter = useMemo(() => filterFromSearch(new URLSearchParams(search), openedAt), [search, openedAt]);
  const filterQuery = useMemo(() => filterToApiQuery(filter), [filter]);
  const tabParam = params.get('tab');
  const tab: HistoryTab = isTab(tabParam) ? tabParam : 'dados';
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam > 1 ? pageParam : 1;

  const state: unknown = location.state;
  const update = useCallback(
    (change: (next: URLSearchParams) => URLSearchParams, replace: boolean) =>
      setParams((current) => change(new URLSearchParams(current)), { replace, state }),
    [setParams, state],
  );

  const applyFilter = useCallback(
    (next: HistoryFilterState) => update((current) => filterToSearch(next, current), false),
    [update],
  );
  const setTab = useCallback(
    (next: HistoryTab) =>
      update((current) => {
        if (next === 'dados') current.delete('tab');
        else current.set('tab', next);
        return current;
      }, true),
    [update],
  );
  const setPage = useCallback(
    (next: number) =>
      update((current) => {
        if (next > 1) current.set('page', String(next));
        else current.delete('page');
        return current;
      }, true),
    [update],
  );

  return { filter, filterQuery, filterKey: filterQuery, tab, page, applyFilter, setTab, setPage };
}
