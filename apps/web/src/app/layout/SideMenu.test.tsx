import type { ProfileId } from '@sentinela/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeSession } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import type { MenuScreen } from '../screens';
import { SideMenu } from './SideMenu';

// Every signed-in entry of spec 000 "Menus" with the permission it will carry, so the role filter can be
// checked before all the screens exist (the real list holds only built screens).
const ALL_ENTRIES: MenuScreen[] = [
  { path: '/profile', label: 'Perfil', permission: 'profile:own' },
  { path: '/my-devices', label: 'Meus Dispositivos', permission: 'devices:read' },
  { path: '/client-devices', label: 'Dispositivos', permission: 'client-devices:read' },
  { path: '/enterprises', label: 'Empresas', permission: 'enterprises:manage' },
  { path: '/directions', label: 'Viagens', permission: 'travels:read' },
  { path: '/localizator', label: 'Rastrear viagem', permission: 'travels:read' },
  { path: '/select-user', label: 'Usuários', permission: 'users:manage' },
  { path: '/firmware', label: 'Firmwares', permission: 'firmware:manage' },
  { path: '/reports', label: 'Relatórios', permission: 'reports:read' },
  { path: '/settings', label: 'Configurações', permission: 'settings:own' },
];

function menuLabels(profileId: ProfileId, entries: MenuScreen[] = ALL_ENTRIES): string[] {
  renderWithProviders(<SideMenu session={makeSession(profileId)} onLogout={() => {}} entries={entries} />);
  const nav = within(screen.getByTestId('side-menu')).getByRole('navigation');
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent ?? '');
}

describe('SideMenu (P6, P8)', () => {
  it('super admin sees every entry, in the order of the documents', () => {
    expect(menuLabels(1)).toEqual(ALL_ENTRIES.map((entry) => entry.label));
  });

  it('enterprise admin sees Usuários but not Empresas nor Firmwares', () => {
    const labels = menuLabels(2);
    expect(labels).toContain('Usuários');
    expect(labels).toContain('Dispositivos');
    expect(labels).not.toContain('Empresas');
    expect(labels).not.toContain('Cadastrar Dispositivos');
    expect(labels).not.toContain('Firmwares');
  });

  it.each([4, 5] as const)('client profile %i does not see Dispositivos, Usuários, Empresas', (profileId) => {
    const labels = menuLabels(profileId);
    expect(labels).not.toContain('Dispositivos');
    expect(labels).not.toContain('Usuários');
    expect(labels).not.toContain('Empresas');
    expect(labels).toEqual(
      expect.arrayContaining(['Perfil', 'Meus Dispositivos', 'Relatórios', 'Configurações']),
    );
  });

  it('lists only built screens by default', () => {
    // The super admin belongs to no enterprise (GET /api/user-client-id answers nulls).
    renderWithProviders(<SideMenu session={{ ...makeSession(1), enterprise: { _id: null, name: null } }} onLogout={() => {}} />);
    const links = within(screen.getByRole('navigation')).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Perfil', '/profile'],
      ['Meus Dispositivos', '/my-devices'],
      ['Dispositivos', '/client-devices'],
      ['Locais', '/locations'],
      ['Empresas', '/enterprises'],
      ['Cadastrar Dispositivos', '/beacons'],
      ['Viagens', '/directions'],
      ['Rastrear viagem', '/localizator'],
      ['Usuários', '/select-user'],
      ['Firmwares', '/firmware'],
      ['Planos', '/admin/plans'],
      ['Gateways', '/gateways'],
      ['Links de monitoramento', '/monitor-links'],
      ['Financeiro', '/financial'],
      ['Relatórios', '/reports'],
      ['Trilha de auditoria', '/audit-trail'],
      ['Configurações', '/settings'],
    ]);
  });

  it('the built Gateways entry is for admins only, Firmwares for the super admin only', () => {
    const labelsOf = (profileId: Parameters<typeof makeSession>[0]) => {
      const { unmount } = renderWithProviders(<SideMenu session={makeSession(profileId)} onLogout={() => {}} />);
      const labels = within(screen.getByRole('navigation')).getAllByRole('link').map((link) => link.textContent);
      unmount();
      return labels;
    };
    // One render per profile: each render of the whole menu is costly on a loaded machine.
    const admin = labelsOf(2);
    expect(admin).toContain('Gateways');
    expect(admin).toContain('Links de monitoramento');
    expect(admin).not.toContain('Firmwares');
    expect(admin).not.toContain('Planos');
    expect(admin).toContain('Financeiro');
    // X11: the audit trail is for administrators.
    expect(admin).toContain('Trilha de auditoria');
    // /plans, which no menu of the documents linked: the enterprise's administrators reach it here (issue 26).
    expect(admin).toContain('Plano e assinatura');
    for (const profileId of [3, 4, 5] as const) {
      const labels = labelsOf(profileId);
      expect(labels).not.toContain('Trilha de auditoria');
      expect(labels).not.toContain('Gateways');
      expect(labels).not.toContain('Links de monitoramento');
      expect(labels).not.toContain('Firmwares');
      expect(labels).not.toContain('Planos');
      expect(labels).not.toContain('Financeiro');
      expect(labels).not.toContain('Plano e assinatura');
    }
  });

  it('shows the user, truncates email above 30 and enterprise above 20 characters', () => {
    const session = makeSession(3, { email: 'joao.carlos.pereira@transportadora.com.br' });
    session.enterprise = { _id: 'e1', name: 'Transportadora Rio Grande Ltda' };
    renderWithProviders(<SideMenu session={session} onLogout={() => {}} />);

    const menu = within(screen.getByTestId('side-menu'));
    expect(menu.getByText('Maria Souza')).toBeTruthy();
    expect(menu.getByText('joao.carlos.pereira@transporta...')).toBeTruthy();
    expect(menu.getByText('Transportadora Rio G...')).toBeTruthy();
  });

  it('Sair signs out', async () => {
    const onLogout = vi.fn();
    renderWithProviders(<SideMenu session={makeSession(3)} onLogout={onLogout} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sair' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('"Plano e assinatura" leads an enterprise administrator to /plans, before Financeiro', () => {
    renderWithProviders(<SideMenu session={makeSession(2)} onLogout={() => {}} />);
    const links = within(screen.getByRole('navigation')).getAllByRole('link');
    const labels = links.map((link) => link.textContent);
    expect(links.find((link) => link.textContent === 'Plano e assinatura')!.getAttribute('href')).toBe('/plans');
    expect(labels.indexOf('Plano e assinatura')).toBe(labels.indexOf('Financeiro') - 1);
  });
});
