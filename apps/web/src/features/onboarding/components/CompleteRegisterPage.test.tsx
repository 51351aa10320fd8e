import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

/** /complete-register's header shows each step's state as the server says (issue 26, ADR 84), not as Stepper guesses. */
const profile = (verified: boolean) => ({ name: 'Lia', username: 'lia', email: 'lia@example.com', phone: null, verified });
const ADDRESS = { cep: '01310100', number: '1000', address: 'Avenida Paulista', neighbourhood: 'Bela Vista', city: 'São Paulo', uf: 'SP', ibge: '3550308' };

function serve({ verified, address }: { verified: boolean; address: typeof ADDRESS | null }) {
  let saved = address;
  return mockFetch(({ url, method }) => {
    const { pathname } = new URL(url, 'http://localhost');
    if (pathname === '/api/profile') return jsonResponse(profile(verified));
    if (pathname === '/api/enterprise/address' && method === 'POST') {
      saved = ADDRESS;
      return jsonResponse({ success: true, message: 'Endereço salvo com sucesso!' });
    }
    if (pathname === '/api/enterprise/address') return jsonResponse(saved);
    if (pathname === '/api/subscription') return errorResponse(404, 'Assinatura não encontrada.');
    if (pathname.startsWith('/api/cep/')) return jsonResponse({ cep: '01310100', logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP', ibge: '3550308' });
    return errorResponse(404, 'Não encontrado.');
  });
}

const stepState = (key: string) => screen.getByTestId(`registration-step-${key}`).getAttribute('data-state');

describe('/complete-register steps (A4)', () => {
  it('opens on the first step not done and marks done only what is', async () => {
    startSession(makeSession(2));
    serve({ verified: true, address: null });
    renderApp('/complete-register');
    expect(await screen.findByRole('form', { name: 'Endereço da empresa' })).toBeTruthy();
    expect(stepState('email')).toBe('done');
    expect(stepState('address')).toBe('todo');
    expect(stepState('payment')).toBe('todo');
    expect(screen.getByRole('button', { name: 'Passo 2, Endereço: Pendente' }).getAttribute('aria-current')).toBe('step');
  });

  it('a later step open in the URL does not mark the earlier ones done', async () => {
    startSession(makeSession(2));
    serve({ verified: false, address: null });
    renderApp('/complete-register?step=3');
    expect(await screen.findByText(/Sua empresa ainda não escolheu um plano/)).toBeTruthy();
    await waitFor(() => expect(stepState('email')).toBe('todo'));
    expect(stepState('address')).toBe('todo');
    expect(screen.getByRole('button', { name: 'Passo 1, Confirmar e-mail: Pendente' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Passo 1, Confirmar e-mail: Pendente' }));
    expect(await screen.findByText(/Enviamos um link de confirmação para lia@example.com/)).toBeTruthy();
  });

  it('saving the address turns step 2 done', async () => {
    startSession(makeSession(2));
    serve({ verified: true, address: null });
    renderApp('/complete-register?step=2');
    await screen.findByRole('form', { name: 'Endereço da empresa' });
    await userEvent.type(screen.getByLabelText(/^CEP/), '01310100');
    await waitFor(() => expect((screen.getByLabelText(/^Bairro/) as HTMLInputElement).value).toBe('Bela Vista'));
    await userEvent.type(screen.getByLabelText(/^Número/), '1000');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await screen.findByText('Endereço salvo com sucesso!');
    await waitFor(() => expect(stepState('address')).toBe('done'));
  });
});
