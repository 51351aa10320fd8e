import { MSG } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeUser } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

async function submit(username: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Usuário'), username);
  await userEvent.type(screen.getByLabelText('Senha'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('/login (A2)', () => {
  it('shows "Erro!" with the server message when the credentials are refused', async () => {
    const { requests } = mockFetch(() => errorResponse(401, MSG.invalidCredentials, 'INVALID_CREDENTIALS'));
    renderApp('/login');

    await submit('maria', 'errada');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Erro!')).toBeTruthy();
    expect(within(alert).getByText(MSG.invalidCredentials)).toBeTruthy();
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/authenticate',
      body: { username: 'maria', password: 'errada' },
    });
    expect(requests[0]?.headers.authorization).toBeUndefined();
    expect(getSession()).toBeNull();
  });

  it('shows the server message for too many attempts', async () => {
    mockFetch(() => errorResponse(429, MSG.tooManyLoginAttempts, 'TOO_MANY_REQUESTS'));
    renderApp('/login');
    await submit('maria', 'x');
    expect(await screen.findByText(MSG.tooManyLoginAttempts)).toBeTruthy();
  });

  it('validates empty fields without calling the server', async () => {
    const { fetchMock } = mockFetch(() => jsonResponse({}));
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Informe o usuário.')).toBeTruthy();
    expect(screen.getByText('Informe a senha.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('links to the report validator (R6)', async () => {
    renderApp('/login');
    expect((await screen.findByRole('link', { name: 'Validar relatório' })).getAttribute('href')).toBe('/report/validator');
  });

  it('signs in, stores the session with the enterprise and opens /my-devices', async () => {
    const user = makeUser(3);
    const { requests } = mockFetch(({ url }) => {
      if (url === '/api/authenticate')
        return jsonResponse({ token: { token: 'jwt-abc', expires_at: '2030-01-01T00:00:00.000Z' }, user });
      if (url === `/api/user-client-id/${user._id}`) return jsonResponse({ _id: 'ent-9', name: 'Farmácia Central' });
      if (url === `/api/devices-by-user/${user._id}`) return jsonResponse([]);
      return errorResponse(404, MSG.routeNotFound);
    });
    const { router } = renderApp('/login');

    await submit('maria', 'Senha@123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/my-devices'));
    expect(await screen.findByRole('heading', { name: 'Meus Dispositivos' })).toBeTruthy();
    expect(getSession()).toMatchObject({ token: 'jwt-abc', enterprise: { _id: 'ent-9', name: 'Farmácia Central' } });
    expect(requests[1]?.headers.authorization).toBe('Bearer jwt-abc');
    expect(within(screen.getByTestId('side-menu')).getByText('Farmácia Central')).toBeTruthy();
  });
});
