import { lazy } from 'react';

// One chunk per screen, loaded when its route is first visited.
export const LoginPage = lazy(() =>
  import('../features/auth/components/LoginPage').then((module) => ({ default: module.LoginPage })),
);
export const MyDevicesPage = lazy(() =>
  import('../features/devices/components/MyDevicesPage').then((module) => ({ default: module.MyDevicesPage })),
);
export const NotFoundPage = lazy(() => import('./NotFoundPage').then((module) => ({ default: module.NotFoundPage })));
