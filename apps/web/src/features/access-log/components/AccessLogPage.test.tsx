import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, screenRequests } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const USER_ID = 'u0000000-0000-4000-8000-000000000002';
const entry = (n: number, message: string) => ({
  _id: String(n),
  created_at: `2024-03-05T13:0${n}:00.000Z`,
  client: 'web',
  clientVersion: '1.1.0',
  clientOs: 'linux',
  ip: '10.0.0.7',
  apiVersion: '1.0.0',
  user: { _id: USER_ID, name: 'João Silva' },
  message,
});

function open(profileId: 1 | 2 | 3, handler: Handler, path = `/acess-log?user_id=${USER_ID}`) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp(path) };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

describe('/acess-log "Logs de acesso" (M7)', () => {
  it("lists the user's access log with the documents' columns", async () => {
    const { requests } = open(2, () => jsonResponse([entry(2, 'GET /api/travels'), entry(1, 'Login realizado')]));
    expect(await screen.findByRole('heading', { name: 'Logs de acesso' })).toBeTruthy();
    await screen.findByText('Login realizado');
    expect(screenRequests(requests)[0]!.url).toContain(`/api/access-log?user_id=${USER_ID}`);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Data/Hora',
      'Cliente (dispositivo)',
      'Versão da aplicação',
      'Sistema operacional',
      'IP',
      'Versão da API',
      'Usuário',
      'Mensagem',
    ]);
    expect(within(bodyRows()[1] as HTMLElement).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      '05/03/2024 10:01:00',
      'web',
      '1.1.0',
      'linux',
      '10.0.0.7',
      '1.0.0',
      'João Silva',
      'Login realizado',
    ]);
  });

  it('says why when the server refuses (a user of another enterprise)', async () => {
    open(2, () => errorResponse(404, 'Usuário não encontrado.', 'NOT_FOUND'));
    expect(await screen.findByText('Usuário não encontrado.')).toBeTruthy();
  });

  it('is for administrators only', async () => {
    const { requests } = open(3, () => jsonResponse([]));
    expect(await screen.findByRole('heading', { name: 'Acesso negado' })).toBeTruthy();
    expect(screenRequests(requests).some((r) => r.url.includes('/api/access-log'))).toBe(false);
  });
});
