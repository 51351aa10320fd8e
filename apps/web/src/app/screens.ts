import { can, type Permission } from '@sentinela/contract';
import { paths } from '../lib/paths';

export interface MenuScreen {
  path: string;
  label: string;
  permission: Permission;
}

/**
 * Signed-in menu entries, in the order of spec 000 "Menus". Only built screens are listed; each later
 * screen goes in its slot:
 *   /firmware Firmwares 'firmware:manage'            (after Usuários, before Relatórios)
 *   /settings Configurações 'settings:own'           (after Relatórios)
 */
export const screens: readonly MenuScreen[] = [
  { path: paths.profile, label: 'Perfil', permission: 'profile:own' },
  { path: paths.myDevices, label: 'Meus Dispositivos', permission: 'devices:read' },
  { path: paths.clientDevices, label: 'Dispositivos', permission: 'client-devices:read' },
  // Not in the documents' side menu, which never linked /locations: next to the devices it places.
  { path: paths.locations, label: 'Locais', permission: 'locations:read' },
  { path: paths.enterprises, label: 'Empresas', permission: 'enterprises:manage' },
  { path: paths.directions, label: 'Viagens', permission: 'travels:read' },
  { path: paths.localizator, label: 'Rastrear viagem', permission: 'travels:read' },
  { path: paths.selectUser, label: 'Usuários', permission: 'users:manage' },
  { path: paths.reports, label: 'Relatórios', permission: 'reports:read' },
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

/** The entries a profile may see (P6, P8). */
export function menuFor(profileId: number, entries: readonly MenuScreen[] = screens): MenuScreen[] {
  return entries.filter((entry) => can(profileId, entry.permission));
}
