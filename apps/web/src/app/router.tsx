import type { RouteObject } from 'react-router';
import { paths } from '../lib/paths';
import { AppRoot } from './AppRoot';
import { HomeRedirect, RedirectIfSignedIn, RequireSession } from './guards';
import { SessionAwareLayout } from './layout/SessionAwareLayout';
import { SignedInLayout } from './layout/SignedInLayout';
import { SignedOutLayout } from './layout/SignedOutLayout';
import { LoginPage, MyDevicesPage, NotFoundPage } from './pages';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * The route table of the documents (spec 000 §2 / 001 §2, exact paths). Only built screens are
 * registered; unknown paths get the 404 page. Later screens go in their group:
 *   open:      /register, /forgot-password, /reset-password, /complete-register, /telegram/:chatId/login,
 *              /localizator, /confirmation/:token, /report/validator
 *   protected: /profile, /acess-log, /plans, /locations, /reports, /financial, /directions, /firmware,
 *              /settings, /device-history/:mac/:id
 *   admin (protected here, and guarded by the server): /register-user, /register-enterprise, /add-beacons,
 *              /enterprises, /select-user, /edit-user, /client-devices, /enterprise-users
 */
export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: paths.home, element: <HomeRedirect /> },
      {
        element: <RedirectIfSignedIn />,
        children: [{ element: <SignedOutLayout />, children: [{ path: paths.login, element: <LoginPage /> }] }],
      },
      {
        element: <RequireSession />,
        children: [{ element: <SignedInLayout />, children: [{ path: paths.myDevices, element: <MyDevicesPage /> }] }],
      },
      { element: <SessionAwareLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
    ],
  },
];
