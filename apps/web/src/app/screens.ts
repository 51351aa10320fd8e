import { can, type Permission } from '@sentinela/contract';
import { paths } from '../lib/paths';

export interface MenuScreen {
  path: string;
  label: string;
  permission: Permission;
  /** Only for a session that belongs to an enterprise (the super admin has no plan or address of its own). */
  ownEnterprise?: boolean;
}

/**
 * Signed-in menu entries, in the order of spec 000 "Menus". Only built screens are listed; each later
 * screen goes in its slot:
 */
export const screens: readonly MenuScreen[] = [
  { path: paths.profile, label: 'Perfil', permission: 'profile:own' },
  { path: paths.myDevices, label: 'Meus Dispositivos', permission: 'devices:read' },
  { path: paths.clientDevices, label: 'Dispositivos', permission: 'client-devices:read' },
  // Not in the documents' side menu, which never linked /locations: next to the devices it places.
  { path: paths.locations, label: 'Locais', permission: 'locations:read' },
  { path: paths.enterprises, label: 'Empresas', permission: 'enterprises:manage' },
  { path: paths.beacons, label: 'Cadastrar Dispositivos', permission: 'devices:register' },
  { path: paths.directions, label: 'Viagens', permission: 'travels:read' },
  { path: paths.localizator, label: 'Rastrear viagem', permission: 'travels:read' },
  { path: paths.selectUser, label: 'Usuários', permission: 'users:manage' },
  { path: paths.firmware, label: 'Firmwares', permission: 'firmware:manage' },
  // Not in the documents' menus: the super admin's plans and the landing page's FAQ (ADR 28).
  { path: paths.plansAdmin, label: 'Planos', permission: 'plans:manage' },
  // Not in the documents' menus: where admins create and revoke the keys their gateways send readings with.
  { path: paths.gateways, label: 'Gateways', permission: 'gateways:manage' },
  // Not in the documents' menus: read-only links for the wall displays of a control room (ADR 26).
  { path: paths.monitorLinks, label: 'Links de monitoramento', permission: 'monitor-links:manage' },
  // Not in the documents' menus: API tokens and webhooks for other systems (X13).
  { path: paths.integrations, label: 'Integrações', permission: 'integrations:manage' },
  // The documents' /plans, which no menu linked (issue 26): where an enterprise's administrators see and change its
  // plan once it has one (ADR 75). Not the super admin's "Planos" above, which manages the plans themselves.
  { path: paths.plans, label: 'Plano e assinatura', permission: 'enterprise:settings', ownEnterprise: true },
  // Not in the documents' side menu, which never linked /financial: before Relatórios, for administrators (ADR 30).
  { path: paths.financial, label: 'Financeiro', permission: 'financial:read' },
  { path: paths.reports, label: 'Relatórios', permission: 'reports:read' },
  // Not in the documents' menus: who changed which record, when, why (X11, ADR 0060), for administrators.
  { path: paths.auditTrail, label: 'Trilha de auditoria', permission: 'audit-trail:read' },
  { path: paths.settings, label: 'Configurações', permission: 'settings:own' },
];

export interface PublicMenuScreen {
  path: string;
  label: string;
}

/** Signed-out menu, in the documents' order. */
export const publicScreens: readonly PublicMenuScreen[] = [
  { path: paths.register, label: 'Cadastre-se' },
  { path: paths.login, label: 'Entrar' },
  { path: paths.localizator, label: 'Rastrear viagem' },
];

/** The entries a profile may see (P6, P8); `ownEnterprise` entries only when the session has an enterprise. */
export function menuFor(profileId: number, entries: readonly MenuScreen[] = screens, hasEnterprise = true): MenuScreen[] {
  return entries.filter((entry) => can(profileId, entry.permission) && (!entry.ownEnterprise || hasEnterprise));
}
