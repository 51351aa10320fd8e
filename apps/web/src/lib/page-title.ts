import { useEffect } from 'react';

export const APP_NAME = 'Sentinela';

/** Sets the tab's title to "<screen> · Sentinela" while the screen is shown. */
export function usePageTitle(screen: string | null | undefined): void {
  useEffect(() => {
    document.title = screen ? `${screen} · ${APP_NAME}` : APP_NAME;
  }, [screen]);
}
