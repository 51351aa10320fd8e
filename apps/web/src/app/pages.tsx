import { lazy } from 'react';
import { loadScreen } from './load-screen';

// One chunk per screen, loaded when its route is first visited (every one but /login with the shared screen styles).
// /login is where every signed-out visitor lands: it is part of the entry rather than a chunk of its own, so its
// first load is one file instead of a dozen small ones that compress worse (ADR 0040).
export { LoginPage } from '../features/auth/components/LoginPage';
// The loaders of the screens the route starts before the shell has rendered them (app/route-prefetch.ts, ADR 0086).
export const loadMyDevicesPage = () => loadScreen(() => import('../features/devices/components/MyDevicesPage'));
export const loadTravelsPage = () => loadScreen(() => import('../features/travels/components/TravelsPage'));
export const MyDevicesPage = lazy(() => loadMyDevicesPage().then((module) => ({ default: module.MyDevicesPage })));
export const DeviceHistoryPage = lazy(() =>
  loadScreen(() => import('../features/device-history/components/DeviceHistoryPage')).then((module) => ({ default: module.DeviceHistoryPage })),
);
export const ClientDevicesPage = lazy(() =>
  loadScreen(() => import('../features/devices/components/ClientDevicesPage')).then((module) => ({ default: module.ClientDevicesPage })),
);
export const EnterprisesPage = lazy(() =>
  loadScreen(() => import('../features/enterprises/components/EnterprisesPage')).then((module) => ({ default: module.EnterprisesPage })),
);
export const RegisterEnterprisePage = lazy(() =>
  loadScreen(() => import('../features/enterprises/components/RegisterEnterprisePage')).then((module) => ({ default: module.RegisterEnterprisePage })),
);
export const SelectUserPage = lazy(() =>
  loadScreen(() => import('../features/users/components/SelectUserPage')).then((module) => ({ default: module.SelectUserPage })),
);
export const EnterpriseUsersPage = lazy(() =>
  loadScreen(() => import('../features/users/components/EnterpriseUsersPage')).then((module) => ({ default: module.EnterpriseUsersPage })),
);
export const TravelsPage = lazy(() => loadTravelsPage().then((module) => ({ default: module.TravelsPage })));
export const LocalizatorPage = lazy(() =>
  loadScreen(() => import('../features/travels/components/LocalizatorPage')).then((module) => ({ default: module.LocalizatorPage })),
);
export const ReportsPage = lazy(() =>
  loadScreen(() => import('../features/reports/components/ReportsPage')).then((module) => ({ default: module.ReportsPage })),
);
export const ReportValidatorPage = lazy(() =>
  loadScreen(() => import('../features/reports/components/ReportValidatorPage')).then((module) => ({ default: module.ReportValidatorPage })),
);
export const RegisterPage = lazy(() =>
  loadScreen(() => import('../features/accounts/components/RegisterPage')).then((module) => ({ default: module.RegisterPage })),
);
export const ConfirmationPage = lazy(() =>
  loadScreen(() => import('../features/accounts/components/ConfirmationPage')).then((module) => ({ default: module.ConfirmationPage })),
);
export const ForgotPasswordPage = lazy(() =>
  loadScreen(() => import('../features/accounts/components/ForgotPasswordPage')).then((module) => ({ default: module.ForgotPasswordPage })),
);
export const ProtectAccountPage = lazy(() =>
  loadScreen(() => import('../features/accounts/components/ProtectAccountPage')).then((module) => ({ default: module.ProtectAccountPage })),
);
export const ResetPasswordPage = lazy(() =>
  loadScreen(() => import('../features/accounts/components/ResetPasswordPage')).then((module) => ({ default: module.ResetPasswordPage })),
);
export const ProfilePage = lazy(() =>
  loadScreen(() => import('../features/profile/components/ProfilePage')).then((module) => ({ default: module.ProfilePage })),
);
export const LandingPage = lazy(() =>
  loadScreen(() => import('../features/landing/components/LandingPage')).then((module) => ({ default: module.LandingPage })),
);
export const NotFoundPage = lazy(() =>
  loadScreen(() => import('./NotFoundPage')).then((module) => ({ default: module.NotFoundPage })),
);
export const AuditTrailPage = lazy(() =>
  loadScreen(() => import('../features/audit-trail/components/AuditTrailPage')).then((module) => ({ default: module.AuditTrailPage })),
);
export const AccessLogPage = lazy(() =>
  loadScreen(() => import('../features/access-log/components/AccessLogPage')).then((module) => ({ default: module.AccessLogPage })),
);
export const AddBeaconsPage = lazy(() =>
  loadScreen(() => import('../features/device-links/components/AddBeaconsPage')).then((module) => ({ default: module.AddBeaconsPage })),
);
export const BeaconsPage = lazy(() =>
  loadScreen(() => import('../features/beacons/components/BeaconsPage')).then((module) => ({ default: module.BeaconsPage })),
);
export const EditUserPage = lazy(() =>
  loadScreen(() => import('../features/users/components/EditUserPage')).then((module) => ({ default: module.EditUserPage })),
);
export const FirmwarePage = lazy(() =>
  loadScreen(() => import('../features/firmware/components/FirmwarePage')).then((module) => ({ default: module.FirmwarePage })),
);
export const GatewaysPage = lazy(() =>
  loadScreen(() => import('../features/gateways/components/GatewaysPage')).then((module) => ({ default: module.GatewaysPage })),
);
export const MonitorLinksPage = lazy(() =>
  loadScreen(() => import('../features/monitor-links/components/MonitorLinksPage')).then((module) => ({ default: module.MonitorLinksPage })),
);
export const IntegrationsPage = lazy(() =>
  loadScreen(() => import('../features/integrations/components/IntegrationsPage')).then((module) => ({ default: module.IntegrationsPage })),
);
export const PlansAdminPage = lazy(() =>
  loadScreen(() => import('../features/plans-admin/components/PlansAdminPage')).then((module) => ({ default: module.PlansAdminPage })),
);
export const MonitorPage = lazy(() =>
  loadScreen(() => import('../features/monitor-links/components/MonitorPage')).then((module) => ({ default: module.MonitorPage })),
);
export const SettingsPage = lazy(() =>
  loadScreen(() => import('../features/settings/components/SettingsPage')).then((module) => ({ default: module.SettingsPage })),
);
export const TelegramLinkPage = lazy(() =>
  loadScreen(() => import('../features/telegram/components/TelegramLinkPage')).then((module) => ({ default: module.TelegramLinkPage })),
);
export const LocationsPage = lazy(() =>
  loadScreen(() => import('../features/locations/components/LocationsPage')).then((module) => ({ default: module.LocationsPage })),
);
export const RegisterUserPage = lazy(() =>
  loadScreen(() => import('../features/users/components/RegisterUserPage')).then((module) => ({ default: module.RegisterUserPage })),
);
export const CompleteRegisterPage = lazy(() =>
  loadScreen(() => import('../features/onboarding/components/CompleteRegisterPage')).then((module) => ({ default: module.CompleteRegisterPage })),
);
export const PlansPage = lazy(() =>
  loadScreen(() => import('../features/onboarding/components/PlansPage')).then((module) => ({ default: module.PlansPage })),
);
export const FinancialPage = lazy(() =>
  loadScreen(() => import('../features/financial/components/FinancialPage')).then((module) => ({ default: module.FinancialPage })),
);
