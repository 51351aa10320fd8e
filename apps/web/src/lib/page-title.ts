import { useEffect } from 'react';

export const APP_NAME = 'Sentinela';

/**
 * Sets the tab's title to "<screen> · Sentinela". Called once, by the app's root, with the title of the deepest
 * route that declares one (`handle: { title }` in the route table).
 */
export function usePageTitle(screen: string | null | undefined): void {
  useEffect(() => {
    document.title = screen ? `${screen} · ${APP_NAME}` : APP_NAME;
  }, [screen]);
}
