import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession, makeUser } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const joao = makeUser(3, { _id: 'u0000000-0000-4000-8000-000000000002', name: 'João Silva', username: 'joao.silva', email: 'joao.silva@aurora.example' });

function open(profileId: 1 | 2 | 3, update: Handler, gxp = false) {
  startSession(makeSession(profileId));
  const mock = mockFetch((request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === `/api/user/show/${joao._id}`) return jsonResponse(joao);
    if (pathname === '/api/enterprise/compliance') return jsonResponse({ enterprise_id: 'e0000000-0000-4000-8000-000000000001', gxp });
    if (pathname === `/api/user/update/${joao._id}`) return update(request);
    return jsonResponse([]);
  });
  return { ...mock, ...renderApp(`/edit-user?id=${joao._id}`) };
}

describe('/edit-user "Editar Usuário" (M5)', () => {
  it('starts from the user, sends the changes and says Perfil editado com sucesso', async () => {
    const { requests } = open(2, (request) => jsonResponse({ ...joao, ...(request.body as object) }));
    expect(await screen.findByRole('heading', { name: 'Editar Usuário' })).toBeTruthy();
    const name = (await screen.findByLabelText(/Nome/)) as HTMLInputElement;
    expect(name.value).toBe('João Silva');
    expect((screen.getByLabelText(/Usuário/) as HTMLInputElement).value).toBe('joao.silva');
    await userEvent.clear(name);
    await userEvent.type(name, 'João Paulo Silva');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Perfil editado com sucesso')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Sucesso!' })).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({ name: 'João Paulo Silva', username: 'joao.silva', email: 'joao.silva@aurora.example' });
  });

  it('checks the fields before sending, and puts a taken username under its field', async () => {
    const { requests } = open(2, () => errorResponse(409, 'Este usuário já está em uso.', 'CONFLICT'));
    const email = (await screen.findByLabelText(/Email/)) as HTMLInputElement;
    await userEvent.clear(email);
    await userEvent.type(email, 'sem-arroba');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe um email válido.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await userEvent.clear(email);
    await userEvent.type(email, 'joao@aurora.example');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Este usuário já está em uso.')).toBeTruthy();
  });

  it('X11 in GxP mode asks the reason for change in the same form and sends it; links to the user\'s audit trail', async () => {
    const { requests } = open(2, (request) => jsonResponse({ ...joao, ...(request.body as object) }), true);
    const name = (await screen.findByLabelText(/Nome/)) as HTMLInputElement;
    // The menu has the whole trail; the screen's button opens this user's.
    const links = await screen.findAllByRole('link', { name: /Trilha de auditoria/ });
    expect(links.map((a) => a.getAttribute('href'))).toContain(`/audit-trail?entity_id=${joao._id}`);
    await userEvent.clear(name);
    await userEvent.type(name, 'João Paulo Silva');
    expect(await screen.findByText(/Modo GxP: obrigatório/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe o motivo da alteração.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await userEvent.type(screen.getByLabelText(/Motivo da alteração/), 'Nome completo conforme o RG.');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Perfil editado com sucesso')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'João Paulo Silva',
      username: 'joao.silva',
      email: 'joao.silva@aurora.example',
      reason: 'Nome completo conforme o RG.',
    });
  });

  it('ADR 82: a new e-mail waits for the user’s link; the screen says so, and "Cancelar alteração" ends it', async () => {
    let pending: string | null = null;
    startSession(makeSession(2));
    const { requests } = mockFetch((request) => {
      const { pathname } = new URL(request.url, 'http://localhost');
      if (pathname === `/api/user/show/${joao._id}`) return jsonResponse({ ...joao, pending_email: pending });
      if (pathname === '/api/enterprise/compliance') return jsonResponse({ enterprise_id: 'e0000000-0000-4000-8000-000000000001', gxp: false });
      if (pathname === `/api/user/update/${joao._id}`) {
        pending = (request.body as { email: string }).email;
        return jsonResponse({ ...joao, pending_email: pending });
      }
      if (pathname === `/api/user/pending-email/${joao._id}`) {
        pending = null;
        return jsonResponse({ success: true, message: 'Alteração de e-mail cancelada.' });
      }
      return jsonResponse([]);
    });
    const first = renderApp(`/edit-user?id=${joao._id}`);
    const email = (await screen.findByLabelText(/Email/)) as HTMLInputElement;
    expect(screen.queryByText(/Aguardando confirmação/)).toBeNull();
    await userEvent.clear(email);
    await userEvent.type(email, 'joao.novo@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Enviamos um link de confirmação para o novo e-mail. O e-mail do usuário muda quando ele abrir o link.')).toBeTruthy();
    expect(await screen.findByText('Aguardando confirmação de novo e-mail: joao.novo@example.com')).toBeTruthy();
    // Opened again later: the e-mail field holds the current address, the alert the waiting one.
    first.unmount();
    renderApp(`/edit-user?id=${joao._id}`);
    expect(await screen.findByText('Aguardando confirmação de novo e-mail: joao.novo@example.com')).toBeTruthy();
    expect(((await screen.findByLabelText(/Email/)) as HTMLInputElement).value).toBe('joao.silva@aurora.example');
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar alteração' }));
    await expect.poll(() => screen.queryByText(/Aguardando confirmação/)).toBeNull();
    expect(requests.some((r) => r.method === 'DELETE' && r.url.endsWith(`/api/user/pending-email/${joao._id}`))).toBe(true);
  });

  it('is for administrators only', async () => {
    open(3, () => jsonResponse(joao));
    expect(await screen.findByRole('heading', { name: 'Acesso negado' })).toBeTruthy();
  });
});
