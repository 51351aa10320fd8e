import { createTheme, MantineProvider, PasswordInput, type MantineThemeOverride } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client';

const NotificationsHost = lazy(() => import('./NotificationsHost').then((module) => ({ default: module.NotificationsHost })));

export const theme = createTheme({
  primaryColor: 'teal',
  components: {
    // Mantine's own label is English.
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': 'Mostrar ou ocultar senha' } },
    }),
  },
});

/** Client errors (4xx) are answers, not glitches: retry only network failures and 5xx, once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Every authorized request slides the session window (P2): no background refetch on focus, so an idle
      // tab does not keep a session alive.
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** `themeOverride`: the component tests' variant of the theme (src/test/render.tsx); the app passes none. */
export function AppProviders({ queryClient, children, themeOverride = theme }: { queryClient: QueryClient; children: ReactNode; themeOverride?: MantineThemeOverride }) {
  return (
    <MantineProvider theme={themeOverride}>
      <Suspense fallback={null}>
        <NotificationsHost />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
