import { render } from '@testing-library/react';
import { useEffect, type ReactElement } from 'react';
import { MemoryRouter, useLocation, useNavigate, type InitialEntry, type Location, type NavigateFunction } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers';
import { AppRoutes } from '../app/router';

/** What tests read and drive of the app's router: its location, and navigation as a link would do it. */
export interface TestRouter {
  state: { location: Location };
  navigate: (to: string) => Promise<void>;
}

function RouterProbe({ onRender }: { onRender: (location: Location, navigate: NavigateFunction) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => onRender(location, navigate));
  return null;
}

/** Renders the whole app (providers and route table, as main.tsx does) at `path` (a URL or a location with state). */
export function renderApp(path: InitialEntry) {
  const probe: { location?: Location; navigate?: NavigateFunction } = {};
  const view = render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe
          onRender={(location, navigate) => {
            probe.location = location;
            probe.navigate = navigate;
          }}
        />
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  const router: TestRouter = {
    state: {
      get location() {
        if (!probe.location) throw new Error('the router has not rendered');
        return probe.location;
      },
    },
    navigate: async (to) => {
      if (!probe.navigate) throw new Error('the router has not rendered');
      await probe.navigate(to);
    },
  };
  return { ...view, router };
}

/** Renders one component with the app's providers and a memory router. */
export function renderWithProviders(ui: ReactElement, path = '/') {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
}
