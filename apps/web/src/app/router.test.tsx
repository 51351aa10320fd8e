import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@sentinela/contract';
import { describe, expect, it, vi } from 'vitest';
import { startSession, type Session } from '../lib/session';
import { jsonResponse, mockFetch } from '../test/fetch';
import { makeSession } from '../test/fixtures';
import { renderApp } from '../test/render';

describe('routes and guards (P5)', () => {
  it('sends visitors from a protected route to /login', async () => {
    const { router } = renderApp('/my-devices');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByLabelText('Usuário')).toBeTruthy();
  });

  it('/ shows the landing page to visitors and goes to /my-devices when signed in', async () => {
    mockFetch(() => jsonResponse([]));
    const visitor = renderApp('/');
    expect(await screen.findByRole('heading', { name: /Sua carga na temperatura certa/ })).toBeTruthy();
    expect(visitor.router.state.location.pathname).toBe('/');
    visitor.unmount();

    startSession(makeSession(1));
    mockFetch(() => jsonResponse([]));
    const member = renderApp('/');
    await waitFor(() => expect(member.router.state.location.pathname).toBe('/my-devices'));
  });

  it('sends signed-in users from /login to /my-devices', async () => {
    startSession(makeSession(2));
    mockFetch(() => jsonResponse([]));
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-devices'));
  });

  it('shows "Página não encontrada" for unknown paths', async () => {
    renderApp('/nao-existe');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
  });

  it('the signed-out menu lists only screens that exist', async () => {
    renderApp('/login');
    const nav = await screen.findByRole('navigation', { name: 'Menu' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Cadastre-se', 'Entrar', 'Rastrear viagem']);
  });

  it('an expired window alerts, clears the session and goes to /login on the next navigation', async () => {
    vi.useFakeTimers({ now: Date.parse('2024-05-10T12:00:00Z'), shouldAdvanceTime: true });
    startSession(makeSession(1));
    mockFetch(() => jsonResponse([]));
    const { router } = renderApp('/my-devices');
    expect(await screen.findByRole('heading', { name: 'Meus Dispositivos' })).toBeTruthy();

    await router.navigate('/nao-existe');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();

    // Six idle minutes later, the user opens a screen from the menu.
    vi.setSystemTime(Date.parse('2024-05-10T12:06:00Z'));
    await userEvent.click(screen.getByRole('link', { name: 'Meus Dispositivos' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(MSG.sessionExpired)).toBeTruthy();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('Sair revokes the token, clears the session and goes to /login', async () => {
    startSession(makeSession(1));
    const { requests } = mockFetch(({ url }) =>
      url === '/api/logout' ? jsonResponse({ success: true }) : jsonResponse([]),
    );
    const { router } = renderApp('/my-devices');

    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(requests.find((r) => r.url === '/api/logout')).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Bearer token-123' },
    });
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('a stored session of another shape (an older build) ends once the shell has checked it, and goes to /login', async () => {
    const session = makeSession(2);
    startSession({ ...session, user: { ...session.user, profile: { ...session.user.profile, name: 42 } } } as unknown as Session);
    mockFetch(() => jsonResponse([]));
    const { router } = renderApp('/my-devices');

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sessionStorage.getItem('token')).toBeNull();
  });
});
