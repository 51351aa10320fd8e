import { mergeThemeOverrides } from '@mantine/core';
import { render } from '@testing-library/react';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, useLocation, useNavigate, type InitialEntry, type Location, type NavigateFunction } from 'react-router';
import { AppProviders, createQueryClient, theme } from '../app/providers';
import { AppRoutes } from '../app/router';

/**
 * jsdom lays nothing out: every element measures 0×0, so Mantine's floating dropdowns (Menu, Select, MultiSelect,
 * Popover, Tooltip) compute their target as scrolled out of view and hide themselves with `display: none` once
 * floating-ui's position promise settles, a moment after opening. Whether a test's query ran before or after that was
 * a race, lost under load (ADR 50). In the tests the dropdowns stay shown; Chromium covers the real hiding (e2e).
 */
const testTheme = mergeThemeOverrides(theme, {
  components: {
    Popover: { defaultProps: { hideDetached: false } },
    Tooltip: { defaultProps: { hideDetached: false } },
  },
});

/** The app's providers with the tests' theme. */
export function TestProviders({ queryClient = createQueryClient(), children }: { queryClient?: QueryClient; children: ReactNode }) {
  return (
    <AppProviders queryClient={queryClient} themeOverride={testTheme}>
      {children}
    </AppProviders>
  );
}

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
    <TestProviders>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe
          onRender={(location, navigate) => {
            probe.location = location;
            probe.navigate = navigate;
          }}
        />
        <AppRoutes />
      </MemoryRouter>
    </TestProviders>,
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
    <TestProviders>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </TestProviders>,
  );
}
