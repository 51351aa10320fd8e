import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminPlan } from '@sentinela/contract';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const PLAN: AdminPlan = {
  _id: '5c1b8d7e-0000-4000-8000-000000000001',
  name: 'Essencial',
  position: 0,
  max_devices: 10,
  retired_at: null,
  features: ['Até 10 sensores', 'Alarmes por e-mail'],
  cicle: [
    { id: '5c1b8d7e-0000-4000-8000-000000000011', name: 'Mensal', value: 149.9, value_cents: 14990 },
    { id: '5c1b8d7e-0000-4000-8000-000000000012', name: 'Anual', value: 1529, value_cents: 152900 },
  ],
  subscribers: 2,
};

function handler(plans: AdminPlan[], save: Handler = (request) => jsonResponse({ ...PLAN, _id: 'new', name: String((request.body as { name: string }).name) }, 201)): Handler {
  return (request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/admin/plans' && request.method === 'GET') return jsonResponse(plans);
    if (pathname.startsWith('/api/admin/plans')) return save(request);
    if (pathname === '/api/admin/faq') return jsonResponse([]);
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  };
}

async function openNewPlan() {
  await userEvent.click(await screen.findByRole('button', { name: 'Novo plano' }));
  return within(await screen.findByRole('dialog'));
}

describe('Planos (super admin)', () => {
  it('shows the empty state', async () => {
    startSession(makeSession(1));
    mockFetch(handler([]));
    renderApp('/admin/plans');
    expect(await screen.findByText('Nenhum plano cadastrado.')).toBeTruthy();
  });

  it('lists plans with prices in R$, limit, subscribers; delete is off for a plan with subscribers', async () => {
    startSession(makeSession(1));
    mockFetch(handler([PLAN]));
    renderApp('/admin/plans');
    expect(await screen.findByText('Essencial')).toBeTruthy();
    expect(screen.getByText('R$ 149,90/mês')).toBeTruthy();
    expect(screen.getByText('R$ 1.529,00/ano')).toBeTruthy();
    expect(screen.getByText('Até 10')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Excluir' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('checks the form with pt-BR messages before sending anything', async () => {
    startSession(makeSession(1));
    const { requests } = mockFetch(handler([]));
    renderApp('/admin/plans');
    const form = await openNewPlan();
    await userEvent.type(form.getByLabelText('Valor mensal (R$)'), '1,999');
    await userEvent.type(form.getByLabelText('Limite de dispositivos'), '0');
    await userEvent.click(form.getByLabelText('Anual'));
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    expect(await form.findByText('Informe o nome do plano.')).toBeTruthy();
    expect(form.getByText(/O valor deve ser um valor em reais entre 0,00 e R\$ 1\.000\.000,00/)).toBeTruthy();
    expect(form.getByText('O limite de dispositivos deve ser um número inteiro entre 1 e 1000000.')).toBeTruthy();
    expect(requests.some((r) => r.method !== 'GET')).toBe(false);
  });

  it('sends the plan with prices as typed, features one per line, and shows the server refusal', async () => {
    startSession(makeSession(1));
    let calls = 0;
    const { requests } = mockFetch(
      handler([], (request) => {
        calls += 1;
        return calls === 1 ? errorResponse(409, 'Já existe um plano com este nome.', 'CONFLICT') : jsonResponse({ ...PLAN, name: (request.body as { name: string }).name }, 201);
      }),
    );
    renderApp('/admin/plans');
    const form = await openNewPlan();
    await userEvent.type(form.getByLabelText(/Nome do plano/), 'Básico');
    await userEvent.type(form.getByLabelText('Limite de dispositivos'), '10');
    await userEvent.type(form.getByLabelText('Valor mensal (R$)'), '99,90');
    // Typed as people in Brazil type money: dot thousands, decimal comma (issue 26).
    await userEvent.type(form.getByLabelText('Valor anual (R$)'), '1.234,56');
    await userEvent.type(form.getByLabelText(/Recursos/), 'Até 10 sensores{enter}{enter}  Alarmes por e-mail  ');
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    expect(await form.findByText('Já existe um plano com este nome.')).toBeTruthy();
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.body).toEqual({
      name: 'Básico',
      max_devices: 10,
      features: ['Até 10 sensores', 'Alarmes por e-mail'],
      cycles: [
        { name: 'Mensal', value: '99,90' },
        { name: 'Anual', value: '1.234,56' },
      ],
    });
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('an edit shows the prices as they are typed, "1.529,00", and sends them back as shown', async () => {
    startSession(makeSession(1));
    const { requests } = mockFetch(handler([PLAN], (request) => jsonResponse({ ...PLAN, name: (request.body as { name: string }).name })));
    renderApp('/admin/plans');
    const row = (await screen.findByText('Essencial')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Editar' }));
    const form = within(await screen.findByRole('dialog'));
    expect((form.getByLabelText('Valor anual (R$)') as HTMLInputElement).value).toBe('1.529,00');
    expect((form.getByLabelText('Valor mensal (R$)') as HTMLInputElement).value).toBe('149,90');
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect((requests.find((r) => r.method === 'PUT')!.body as { cycles: unknown }).cycles).toEqual([
      { name: 'Mensal', value: '149,90' },
      { name: 'Anual', value: '1.529,00' },
    ]);
  });

  it('an enterprise admin is refused the screen', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch(handler([PLAN]));
    renderApp('/admin/plans');
    expect(await screen.findByText(/Acesso negado/)).toBeTruthy();
    expect(requests.some((r) => r.url.includes('/api/admin/'))).toBe(false);
  });
});
