import { MSG } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, screenRequests } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

function open(handler: Handler) {
  startSession(makeSession(1));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp('/register-enterprise') };
}

async function fill(values: { name?: string; email?: string; password?: string; confirm?: string }) {
  if (values.name) await userEvent.type(screen.getByLabelText(/^Nome/), values.name);
  if (values.email) await userEvent.type(screen.getByLabelText(/^Email/), values.email);
  if (values.password) await userEvent.type(screen.getByLabelText(/^Senha/), values.password);
  if (values.confirm) await userEvent.type(screen.getByLabelText(/^Confirmar Senha/), values.confirm);
}

const created = {
  client: { _id: 'e0000000-0000-4000-8000-000000000099', name: 'Frigorífico Boa Vista' },
  user: { _id: 'u0000000-0000-4000-8000-000000000099', username: 'frigorifico.adm' },
};

describe('/register-enterprise "Cadastro de empresa" (M3)', () => {
  it('checks the fields with the messages of the documents, without calling the server', async () => {
    const { requests } = open(() => jsonResponse(created));
    expect(await screen.findByRole('heading', { name: 'Cadastro de empresa' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe o nome da empresa.')).toBeTruthy();
    expect(screen.getByText('Informe o email.')).toBeTruthy();
    expect(screen.getByText(MSG.passwordRequired)).toBeTruthy();

    expect(screenRequests(requests)).toHaveLength(0);
  });

  it('asks for a valid email, 8 characters, the pattern and an equal confirmation', async () => {
    const { requests } = open(() => jsonResponse(created));
    await screen.findByRole('heading', { name: 'Cadastro de empresa' });
    await fill({ name: 'B', email: 'x@', password: 'abc' });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe um email válido.')).toBeTruthy();
    expect(screen.getByText(MSG.passwordMin)).toBeTruthy();

    await userEvent.type(screen.getByLabelText(/^Senha/), 'defgh');
    expect(await screen.findByText(MSG.passwordPattern)).toBeTruthy();

    await userEvent.clear(screen.getByLabelText(/^Senha/));
    await fill({ password: 'Abcd@123', confirm: 'Abcd@124' });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MSG.passwordsMustMatch)).toBeTruthy();
    expect(screenRequests(requests)).toHaveLength(0);
  });

  it('registers the company and shows the generated login until "Voltar para Empresas"', async () => {
    const { requests, router } = open(({ url }) => (url === '/api/client-all' ? jsonResponse([]) : jsonResponse(created, 201)));
    await screen.findByRole('heading', { name: 'Cadastro de empresa' });
    await fill({ name: 'Frigorífico Boa Vista', email: 'contato@boavista.example', password: 'Empresa@2026', confirm: 'Empresa@2026' });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    const dialog = await screen.findByRole('dialog', { name: MSG.enterpriseCreated });
    expect(within(dialog).getByTestId('credential-username').textContent).toBe('frigorifico.adm');
    expect(within(dialog).getByTestId('credential-password').textContent).toBe('Empresa@2026');
    expect(screenRequests(requests)[0]).toMatchObject({
      method: 'POST',
      url: '/api/client/create/',
      body: {
        client: { name: 'Frigorífico Boa Vista' },
        user: { email: 'contato@boavista.example', password: 'Empresa@2026', userType: 2, available_devices: [], disabled: false, verified: true },
      },
    });

    // Only its button closes it.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: MSG.enterpriseCreated })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar para Empresas' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/enterprises'));
  });

  it('shows the server message, such as a taken email', async () => {
    open(() => errorResponse(409, MSG.emailTaken, 'CONFLICT'));
    await screen.findByRole('heading', { name: 'Cadastro de empresa' });
    await fill({ name: 'Aurora', email: 'aurora.adm@aurora.example', password: 'Empresa@2026', confirm: 'Empresa@2026' });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MSG.emailTaken)).toBeTruthy();
    expect(screen.getByText('Erro!')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows and hides the password', async () => {
    open(() => jsonResponse(created));
    const password = (await screen.findByLabelText(/^Senha/)) as HTMLInputElement;
    expect(password.type).toBe('password');
    await userEvent.click(screen.getAllByRole('button', { name: 'Mostrar ou ocultar senha' })[0] as HTMLElement);
    expect(password.type).toBe('text');
  });
});
