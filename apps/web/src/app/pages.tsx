import { lazy } from 'react';

// One chunk per screen, loaded when its route is first visited.
export const LoginPage = lazy(() =>
  import('../features/auth/components/LoginPage').then((module) => ({ default: module.LoginPage })),
);
export const MyDevicesPage = lazy(() =>
  import('../features/devices/components/MyDevicesPage').then((module) => ({ default: module.MyDevicesPage })),
);
export const DeviceHistoryPage = lazy(() =>
  import('../features/device-history/components/DeviceHistoryPage').then((module) => ({
    default: module.DeviceHistoryPage,
  })),
);
export const ClientDevicesPage = lazy(() =>
  import('../features/devices/components/ClientDevicesPage').then((module) => ({ default: module.ClientDevicesPage })),
);
export const EnterprisesPage = lazy(() =>
  import('../features/enterprises/components/EnterprisesPage').then((module) => ({ default: module.EnterprisesPage })),
);
export const RegisterEnterprisePage = lazy(() =>
  import('../features/enterprises/components/RegisterEnterprisePage').then((module) => ({
    default: module.RegisterEnterprisePage,
  })),
);
export const SelectUserPage = lazy(() =>
  import('../features/users/components/SelectUserPage').then((module) => ({ default: module.SelectUserPage })),
);
export const EnterpriseUsersPage = lazy(() =>
  import('../features/users/components/EnterpriseUsersPage').then((module) => ({ default: module.EnterpriseUsersPage })),
);
export const TravelsPage = lazy(() =>
  import('../features/travels/components/TravelsPage').then((module) => ({ default: module.TravelsPage })),
);
export const LocalizatorPage = lazy(() =>
  import('../features/travels/components/LocalizatorPage').then((module) => ({ default: module.LocalizatorPage })),
);
export const ReportsPage = lazy(() =>
  import('../features/reports/components/ReportsPage').then((module) => ({ default: module.ReportsPage })),
);
export const ReportValidatorPage = lazy(() =>
  import('../features/reports/components/ReportValidatorPage').then((module) => ({ default: module.ReportValidatorPage })),
);
export const RegisterPage = lazy(() =>
  import('../features/accounts/components/RegisterPage').then((module) => ({ default: module.RegisterPage })),
);
export const ConfirmationPage = lazy(() =>
  import('../features/accounts/components/ConfirmationPage').then((module) => ({ default: module.ConfirmationPage })),
);
export const ForgotPasswordPage = lazy(() =>
  import('../features/accounts/components/ForgotPasswordPage').then((module) => ({ default: module.ForgotPasswordPage })),
);
export const ResetPasswordPage = lazy(() =>
  import('../features/accounts/components/ResetPasswordPage').then((module) => ({ default: module.ResetPasswordPage })),
);
export const ProfilePage = lazy(() =>
  import('../features/profile/components/ProfilePage').then((module) => ({ default: module.ProfilePage })),
);
export const LandingPage = lazy(() =>
  import('../features/landing/components/LandingPage').then((module) => ({ default: module.LandingPage })),
);
export const NotFoundPage = lazy(() => import('./NotFoundPage').then((module) => ({ default: module.NotFoundPage })));
export const AccessLogPage = lazy(() =>
  import('../features/access-log/components/AccessLogPage').then((module) => ({ default: module.AccessLogPage })),
);
export const AddBeaconsPage = lazy(() =>
  import('../features/device-links/components/AddBeaconsPage').then((module) => ({ default: module.AddBeaconsPage })),
);
export const BeaconsPage = lazy(() =>
  import('../features/beacons/components/BeaconsPage').then((module) => ({ default: module.BeaconsPage })),
);
export const EditUserPage = lazy(() =>
  import('../features/users/components/EditUserPage').then((module) => ({ default: module.EditUserPage })),
);
export const FirmwarePage = lazy(() =>
  import('../features/firmware/components/FirmwarePage').then((module) => ({ default: module.FirmwarePage })),
);
export const GatewaysPage = lazy(() =>
  import('../features/gateways/components/GatewaysPage').then((module) => ({ default: module.GatewaysPage })),
);
export const MonitorLinksPage = lazy(() =>
  import('../features/monitor-links/components/MonitorLinksPage').then((module) => ({ default: module.MonitorLinksPage })),
);
export const PlansAdminPage = lazy(() =>
  import('../features/plans-admin/components/PlansAdminPage').then((module) => ({ default: module.PlansAdminPage })),
);
export const MonitorPage = lazy(() =>
  import('../features/monitor-links/components/MonitorPage').then((module) => ({ default: module.MonitorPage })),
);
export const SettingsPage = lazy(() =>
  import('../features/settings/components/SettingsPage').then((module) => ({ default: module.SettingsPage })),
);
export const TelegramLinkPage = lazy(() =>
  import('../features/telegram/components/TelegramLinkPage').then((module) => ({ default: module.TelegramLinkPage })),
);
export const LocationsPage = lazy(() =>
  import('../features/locations/components/LocationsPage').then((module) => ({ default: module.LocationsPage })),
);
export const RegisterUserPage = lazy(() =>
  import('../features/users/components/RegisterUserPage').then((module) => ({ default: module.RegisterUserPage })),
);
export const CompleteRegisterPage = lazy(() =>
  import('../features/onboarding/components/CompleteRegisterPage').then((module) => ({ default: module.CompleteRegisterPage })),
);
export const PlansPage = lazy(() =>
  import('../features/onboarding/components/PlansPage').then((module) => ({ default: module.PlansPage })),
);
export const FinancialPage = lazy(() =>
  import('../features/financial/FinancialPage').then((module) => ({ default: module.FinancialPage })),
);
