import type { RouteObject } from 'react-router';
import { paths } from '../lib/paths';
import { AppRoot } from './AppRoot';
import { HomeRedirect, RedirectIfSignedIn, RequirePermission, RequireSession } from './guards';
import { SessionAwareLayout } from './layout/SessionAwareLayout';
import { SignedInLayout } from './layout/SignedInLayout';
import { SignedOutLayout } from './layout/SignedOutLayout';
import {
  AccessLogPage,
  ClientDevicesPage,
  ConfirmationPage,
  ForgotPasswordPage,
  RegisterPage,
  ResetPasswordPage,
  DeviceHistoryPage,
  EditUserPage,
  EnterpriseUsersPage,
  EnterprisesPage,
  LocalizatorPage,
  LoginPage,
  MyDevicesPage,
  NotFoundPage,
  RegisterEnterprisePage,
  ReportsPage,
  ReportValidatorPage,
  SelectUserPage,
  TravelsPage,
} from './pages';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * The route table of the documents (spec 000 §2 / 001 §2, exact paths). Only built screens are
 * registered; unknown paths get the 404 page. Later screens go in their group:
 *   open:      /complete-register, /telegram/:chatId/login
 *   protected: /profile, /acess-log, /plans, /locations, /financial, /firmware, /settings
 * /localizator and /report/validator are open and shown in the shell of whoever looks (signed in or not).
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
        children: [
          {
            element: <SignedOutLayout />,
            children: [
              { path: paths.login, element: <LoginPage /> },
              { path: paths.register, element: <RegisterPage /> },
              { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
              { path: paths.resetPassword, element: <ResetPasswordPage /> },
            ],
          },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            element: <SignedInLayout />,
            children: [
              { path: paths.myDevices, element: <MyDevicesPage /> },
              { path: '/device-history/:mac/:id', element: <DeviceHistoryPage /> },
              // Every profile reads its reports ('reports:read'); the server scopes the list.
              { path: paths.reports, element: <ReportsPage /> },
              {
                element: <RequirePermission permission="travels:read" />,
                children: [{ path: paths.directions, element: <TravelsPage /> }],
              },
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
                  { path: paths.editUser, element: <EditUserPage /> },
                ],
              },
              {
                element: <RequirePermission permission="access-log:read" />,
                children: [{ path: paths.accessLog, element: <AccessLogPage /> }],
              },
            ],
          },
        ],
      },
      {
        element: <SessionAwareLayout />,
        children: [
          { path: paths.localizator, element: <LocalizatorPage /> },
          // Opened from an e-mail, in whatever state the browser is: signed in or not.
          { path: '/confirmation/:token', element: <ConfirmationPage /> },
          { path: paths.reportValidator, element: <ReportValidatorPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
