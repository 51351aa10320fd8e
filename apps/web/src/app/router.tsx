import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useMemo } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import { paths } from '../lib/paths';
import { useSession } from '../lib/session';
import { AppRoot } from './AppRoot';
import { HomeRedirect, RedirectIfSignedIn, RequirePermission, RequireSession } from './guards';
import { PageFallback } from './layout/PageFallback';
import { SessionAwareLayout } from './layout/SessionAwareLayout';
import { LazySignedInLayout } from './layout/LazySignedInLayout';
import { SignedOutLayout } from './layout/SignedOutLayout';
import {
  AccessLogPage,
  AuditTrailPage,
  AddBeaconsPage,
  BeaconsPage,
  ClientDevicesPage,
  ConfirmationPage,
  ProtectAccountPage,
  ForgotPasswordPage,
  RegisterPage,
  ResetPasswordPage,
  DeviceHistoryPage,
  EditUserPage,
  EnterpriseUsersPage,
  EnterprisesPage,
  FirmwarePage,
  GatewaysPage,
  MonitorLinksPage,
  IntegrationsPage,
  PlansAdminPage,
  MonitorPage,
  LandingPage,
  LocalizatorPage,
  LocationsPage,
  LoginPage,
  MyDevicesPage,
  NotFoundPage,
  ProfilePage,
  RegisterEnterprisePage,
  ReportsPage,
  ReportValidatorPage,
  SelectUserPage,
  SettingsPage,
  TelegramLinkPage,
  TravelsPage,
  RegisterUserPage,
  CompleteRegisterPage,
  PlansPage,
  FinancialPage,
} from './pages';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { prefetchRoute } from './route-prefetch';
import { RouteTitleContext } from './route-title';

/** /login, starting the next screen's code and first request as soon as the credentials are accepted (ADR 0086). */
function LoginRoute() {
  const queryClient = useQueryClient();
  return (
    <LoginPage
      onAuthenticated={({ token, user }, destination) =>
        prefetchRoute(new URL(destination, window.location.origin).pathname, queryClient, { user, auth: { token } })
      }
    />
  );
}

/**
 * The route table of the documents (spec 000 §2 / 001 §2, exact paths). Only built screens are
 * registered; unknown paths get the 404 page. Later screens go in their group:
 *   protected: /acess-log
 * /complete-register is open in the documents; it is about the signed-in registrant's enterprise, so it needs a
 * session here (a visitor is sent to /login and comes back: ADR 0017).
 * /localizator and /report/validator are open and shown in the shell of whoever looks (signed in or not).
 * Admin screens also check the profile's permission, only to say "Acesso negado" instead of an empty page.
 */
export const routes: RouteObject[] = [
  // A wall display's monitor (ADR 26): outside the app's root, so no session, menu or idle timeout reaches it.
  {
    path: '/monitor/:token',
    element: (
      <RouteErrorBoundary>
        <Suspense fallback={<PageFallback />}>
          <MonitorPage />
        </Suspense>
      </RouteErrorBoundary>
    ),
  },
  {
    element: (
      <RouteErrorBoundary>
        <AppRoot />
      </RouteErrorBoundary>
    ),
    children: [
      { handle: { title: 'Monitoramento da cadeia fria' }, path: paths.home, element: <HomeRedirect visitor={<LandingPage />} /> },
      {
        element: <RedirectIfSignedIn />,
        children: [
          {
            element: <SignedOutLayout />,
            children: [
              { handle: { title: 'Entrar' }, path: paths.login, element: <LoginRoute /> },
              { handle: { title: 'Cadastre-se' }, path: paths.register, element: <RegisterPage /> },
              { handle: { title: 'Esqueci minha senha' }, path: paths.forgotPassword, element: <ForgotPasswordPage /> },
              { handle: { title: 'Alterar senha' }, path: paths.resetPassword, element: <ResetPasswordPage /> },
            ],
          },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            element: <LazySignedInLayout />,
            children: [
              { handle: { title: 'Perfil' }, path: paths.profile, element: <ProfilePage /> },
              { handle: { title: 'Meus Dispositivos' }, path: paths.myDevices, element: <MyDevicesPage /> },
              { handle: { title: 'Histórico do dispositivo' }, path: '/device-history/:mac/:id', element: <DeviceHistoryPage /> },
              // Every profile reads its reports ('reports:read'); the server scopes the list.
              { handle: { title: 'Relatórios' }, path: paths.reports, element: <ReportsPage /> },
              { handle: { title: 'Configurações' }, path: paths.settings, element: <SettingsPage /> },
              // Every profile reads its enterprise's locations ('locations:read'); admins manage them.
              {
                element: <RequirePermission permission="locations:read" />,
                children: [{ handle: { title: 'Locais' }, path: paths.locations, element: <LocationsPage /> }],
              },
              { handle: { title: 'Planos' }, path: paths.plans, element: <PlansPage /> },
              {
                element: <RequirePermission permission="enterprise:settings" />,
                children: [{ handle: { title: 'Concluir cadastro' }, path: paths.completeRegister, element: <CompleteRegisterPage /> }],
              },
              {
                element: <RequirePermission permission="travels:read" />,
                children: [{ handle: { title: 'Viagens' }, path: paths.directions, element: <TravelsPage /> }],
              },
              {
                element: <RequirePermission permission="client-devices:read" />,
                children: [{ handle: { title: 'Dispositivos' }, path: paths.clientDevices, element: <ClientDevicesPage /> }],
              },
              {
                element: <RequirePermission permission="enterprises:manage" />,
                children: [
                  { handle: { title: 'Empresas' }, path: paths.enterprises, element: <EnterprisesPage /> },
                  { handle: { title: 'Cadastro de empresa' }, path: paths.registerEnterprise, element: <RegisterEnterprisePage /> },
                ],
              },
              {
                element: <RequirePermission permission="devices:register" />,
                children: [{ handle: { title: 'Cadastrar Dispositivos' }, path: paths.beacons, element: <BeaconsPage /> }],
              },
              {
                // Into an enterprise (super admin) or to a user (its administrators): the server checks which.
                element: <RequirePermission permission="devices:link" />,
                children: [{ handle: { title: 'Vincular Dispositivos' }, path: paths.addBeacons, element: <AddBeaconsPage /> }],
              },
              {
                element: <RequirePermission permission="users:manage" />,
                children: [
                  { handle: { title: 'Usuários' }, path: paths.selectUser, element: <SelectUserPage /> },
                  { handle: { title: 'Usuários da empresa' }, path: paths.enterpriseUsers, element: <EnterpriseUsersPage /> },
                  { handle: { title: 'Editar usuário' }, path: paths.editUser, element: <EditUserPage /> },
                  { handle: { title: 'Cadastro de usuário' }, path: paths.registerUser, element: <RegisterUserPage /> },
                ],
              },
              {
                element: <RequirePermission permission="firmware:manage" />,
                children: [{ handle: { title: 'Firmwares' }, path: paths.firmware, element: <FirmwarePage /> }],
              },
              {
                element: <RequirePermission permission="gateways:manage" />,
                children: [{ handle: { title: 'Gateways' }, path: paths.gateways, element: <GatewaysPage /> }],
              },
              {
                element: <RequirePermission permission="monitor-links:manage" />,
                children: [{ handle: { title: 'Links de monitoramento' }, path: paths.monitorLinks, element: <MonitorLinksPage /> }],
              },
              {
                element: <RequirePermission permission="integrations:manage" />,
                children: [{ handle: { title: 'Integrações' }, path: paths.integrations, element: <IntegrationsPage /> }],
              },
              {
                element: <RequirePermission permission="plans:manage" />,
                children: [{ handle: { title: 'Planos' }, path: paths.plansAdmin, element: <PlansAdminPage /> }],
              },
              {
                // Enterprise administrators (their enterprise's billing) and the super admin (every enterprise's).
                element: <RequirePermission permission="financial:read" />,
                children: [{ handle: { title: 'Financeiro' }, path: paths.financial, element: <FinancialPage /> }],
              },
              {
                element: <RequirePermission permission="access-log:read" />,
                children: [{ handle: { title: 'Log de acesso' }, path: paths.accessLog, element: <AccessLogPage /> }],
              },
              {
                element: <RequirePermission permission="audit-trail:read" />,
                children: [{ handle: { title: 'Trilha de auditoria' }, path: paths.auditTrail, element: <AuditTrailPage /> }],
              },
            ],
          },
        ],
      },
      {
        element: <SessionAwareLayout />,
        children: [
          { handle: { title: 'Localizador' }, path: paths.localizator, element: <LocalizatorPage /> },
          // Opened from an e-mail, in whatever state the browser is: signed in or not.
          { handle: { title: 'Confirmação de e-mail' }, path: '/confirmation/:token', element: <ConfirmationPage /> },
          // "Não fui eu" from a change notice (ADR 58): opened from an e-mail, signed in or not.
          { handle: { title: 'Proteger minha conta' }, path: '/protect-account/:token', element: <ProtectAccountPage /> },
          { handle: { title: 'Validar relatório' }, path: paths.reportValidator, element: <ReportValidatorPage /> },
          // Opened from the Telegram bot's answer to /start, signed in or not: it signs in on its own form.
          { handle: { title: 'Vincular contas' }, path: '/telegram/:chatId/login', element: <TelegramLinkPage /> },
          { handle: { title: 'Página não encontrada' }, path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/**
 * The route table at the browser's location, in React Router's declarative mode: its data router (loaders, actions,
 * fetchers), which no screen uses, is ~17 kB gzip of every first load (ADR 0048).
 */
export function AppRoutes() {
  const location = useLocation();
  const queryClient = useQueryClient();
  const session = useSession();
  // While the route renders, not in an effect: React Router navigates in a transition, which commits (and runs
  // effects) only once the screen's lazy chunks have loaded, and those chunks and the screen's first request are what
  // this starts in parallel (ADR 0086). Calling it again is harmless (see prefetchRoute).
  useMemo(() => {
    if (session) prefetchRoute(location.pathname, queryClient, session);
  }, [location.pathname, session, queryClient]);
  const title = useMemo(
    () =>
      matchRoutes(routes, location)
        ?.map((match) => (match.route.handle as { title?: string } | undefined)?.title)
        .findLast(Boolean),
    [location],
  );
  return <RouteTitleContext value={title}>{useRoutes(routes, location)}</RouteTitleContext>;
}
