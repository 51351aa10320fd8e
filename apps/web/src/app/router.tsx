import type { RouteObject } from 'react-router';
import { paths } from '../lib/paths';
import { AppRoot } from './AppRoot';
import { HomeRedirect, RedirectIfSignedIn, RequirePermission, RequireSession } from './guards';
import { SessionAwareLayout } from './layout/SessionAwareLayout';
import { SignedInLayout } from './layout/SignedInLayout';
import { SignedOutLayout } from './layout/SignedOutLayout';
import {
  ClientDevicesPage,
  DeviceHistoryPage,
  EnterpriseUsersPage,
  EnterprisesPage,
  LoginPage,
  MyDevicesPage,
  NotFoundPage,
  RegisterEnterprisePage,
  SelectUserPage,
} from './pages';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * The route table of the documents (spec 000 §2 / 001 §2, exact paths). Only built screens are
 * registered; unknown paths get the 404 page. Later screens go in their group:
 *   open:      /register, /forgot-password, /reset-password, /complete-register, /telegram/:chatId/login,
 *              /localizator, /confirmation/:token, /report/validator
 *   protected: /profile, /acess-log, /plans, /locations, /reports, /financial, /directions, /firmware,
 *              /settings
 *   admin (protected here, and guarded by the server): /register-user, /add-beacons, /edit-user
 * Admin screens also check the profile's permission, only to say "Acesso negado" instead of an empty page.
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
        children: [
          {
            element: <SignedInLayout />,
            children: [
              { path: paths.myDevices, element: <MyDevicesPage /> },
              { path: '/device-history/:mac/:id', element: <DeviceHistoryPage /> },
              {
                element: <RequirePermission permission="client-devices:read" />,
                children: [{ path: paths.clientDevices, element: <ClientDevicesPage /> }],
              },
              {
                element: <RequirePermission permission="enterprises:manage" />,
                children: [
                  { path: paths.enterprises, element: <EnterprisesPage /> },
                  { path: paths.registerEnterprise, element: <RegisterEnterprisePage /> },
                ],
              },
              {
                element: <RequirePermission permission="users:manage" />,
                children: [
                  { path: paths.selectUser, element: <SelectUserPage /> },
                  { path: paths.enterpriseUsers, element: <EnterpriseUsersPage /> },
                ],
              },
            ],
          },
        ],
      },
      { element: <SessionAwareLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
    ],
  },
];
