import { lazy, Suspense } from 'react';
import { loadScreen } from '../load-screen';
import { PageFallback } from './PageFallback';

// The signed-in shell (menu, open-alarms badge and its socket, report exports) is a chunk of its own: the screens
// of a visitor (/login, /register, the landing page) never load it (issue 15, item 5).
// Its loader is also started by the route, beside the screen's own chunk and data (app/route-prefetch.ts, ADR 0086).
export const loadSignedInLayout = () => loadScreen(() => import('./SignedInLayout'));
const SignedInLayout = lazy(() => loadSignedInLayout().then((module) => ({ default: module.SignedInLayout })));

export function LazySignedInLayout() {
  return (
    <Suspense fallback={<PageFallback />}>
      <SignedInLayout />
    </Suspense>
  );
}
