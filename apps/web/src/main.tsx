import './lib/zod-without-eval';
import './app/styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { prefetchRoute } from './app/route-prefetch';
import { AppRoutes } from './app/router';
import { checkBuild } from './lib/build-check';
import { getSession, isSessionExpired } from './lib/session';

async function start() {
  const queryClient = createQueryClient();
  // The signed-in screen's requests and chunks start beside the build check rather than after it (ADR 0086); were a
  // newer build served, the page reloads and they are simply not used.
  const session = getSession();
  if (session && !isSessionExpired()) prefetchRoute(window.location.pathname, queryClient, session);
  // P1: render only after the build-version check (a newer served build reloads instead).
  if ((await checkBuild()) === 'reloading') return;
  const container = document.getElementById('root');
  if (!container) throw new Error('#root not found');
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  );
}

void start();
