import { mergeThemeOverrides } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient, theme } from '../app/providers';
import { routes } from '../app/router';

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

/** Renders the whole app (providers and route table) at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
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
