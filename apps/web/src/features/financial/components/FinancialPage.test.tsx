import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invoice, InvoiceListResponse } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const ENTERPRISE = { _id: 'e0000000-0000-4000-8000-000000000001', name: 'Frigorífico Boa Vista' };

function invoice(n: number, overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: `a0000000-0000-4000-8000-00000000000${n}`,
    number: 40 + n,
    enterprise: ENTERPRISE,
    data: '2026-11-01T12:00:00.000Z',
    due_at: '2026-11-10T12:00:00.000Z',
    period_start: '2026-11-05T03:00:00.000Z',
    period_end: '2026-12-05T03:00:00.000Z',
    plan: { _id: 'p1', name: 'Profissional', cicle_id: 'c1', cicle_name: 'Mensal' },
    modo: 'Mensal',
    transacao: 'ABCDEFGHIJKLMNOPQRSTUVWXY',
    metodo: 'PIX',
    valor: 123456,
    status: 'pending',
    pending: true,
    paid_at: null,
    kind: 'cycle',
    plan_value_cents: null,
    upgraded_from: null,
    ...overrides,
  };
}

const page = (data: Invoice[], extra: Partial<InvoiceListResponse> = {}): InvoiceListResponse => ({
  data,
  total: data.length,
  page: 1,
  limit: 10,
  subscription: { status: 'active', restricted_at: null },
  ...extra,
});

function open(profileId: 1 | 2 | 3, handler: Handler, path = '/financial') {
  startSession(makeSession(profileId));
  const mock = mockFetch((request) => {
    if (request.url.startsWith('/api/financial/bank-account')) return jsonResponse({ bank_account: null });
    if (request.url.startsWith('/api/client-all')) return jsonResponse([]);
    return handler(request);
  });
  return { ...mock, ...renderApp(path) };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

describe('/financial "Financeiro" (A9)', () => {
  it('lists the enterprise\'s invoices in R$ and DD/MM/YYYY, with "Pagar Fatura" only while pending', async () => {
    const paid = invoice(1, { status: 'paid', pending: false, paid_at: '2026-11-09T12:00:00.000Z', valor: 39990 });
    const { requests } = open(2, () => jsonResponse(page([invoice(2), paid])));
    expect(await screen.findByRole('heading', { name: 'Financeiro' })).toBeTruthy();
    await screen.findByText('R$ 1.234,56');
    expect(screen.getByRole('tab', { name: 'Faturas' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Nº', 'Data', 'Plano', 'Modo', 'Vencimento', 'Valor', 'Método', 'Situação', 'Ações']);
    const [pendingRow, paidRow] = bodyRows() as [HTMLElement, HTMLElement];
    expect(within(pendingRow).getAllByRole('cell').map((td) => td.textContent).slice(0, 9)).toEqual([
      '42', '01/11/2026', 'Profissional', 'Mensal', '10/11/2026', 'R$ 1.234,56', 'PIX', 'Em aberto', 'DetalhesPagar Fatura',
    ]);
    expect(within(pendingRow).getByRole('button', { name: 'Pagar Fatura' })).toBeTruthy();
    expect(within(paidRow).getByText('Paga')).toBeTruthy();
    expect(within(paidRow).getByText('R$ 399,90')).toBeTruthy();
    expect(within(paidRow).queryByRole('button', { name: 'Pagar Fatura' })).toBeNull();
    const list = requests.find((r) => r.url.startsWith('/api/invoices'))!;
    // An enterprise admin never names an enterprise: the server applies its own.
    expect(list.url).toBe('/api/invoices?page=1&limit=10');
    expect(document.title).toContain('Financeiro');
  });

  it('a pro-rated upgrade invoice is marked and its detail says it is not the full price (ADR 75)', async () => {
    const prorated = invoice(5, {
      valor: 25000,
      period_start: '2026-11-20T15:00:00.000Z',
      kind: 'proration',
      plan: { _id: 'p3', name: 'Empresarial', cicle_id: 'c3', cicle_name: 'Mensal' },
      plan_value_cents: 89990,
      upgraded_from: { plan_name: 'Profissional', cicle_name: 'Mensal', value_cents: 39990 },
    });
    open(2, (request) =>
      request.url.startsWith(`/api/invoices/${prorated.id}`) ? jsonResponse({ ...prorated, payment: null }) : jsonResponse(page([prorated, invoice(2)])),
    );
    await screen.findByText('R$ 250,00');
    const [proratedRow, cycleRow] = bodyRows() as [HTMLElement, HTMLElement];
    expect(within(proratedRow).getAllByRole('cell')[2]!.textContent).toBe('EmpresarialPró-rata');
    expect(within(cycleRow).getAllByRole('cell')[2]!.textContent).toBe('Profissional');
    await userEvent.click(within(proratedRow).getByRole('button', { name: `Detalhes da fatura nº ${prorated.number}` }));
    const line = await screen.findByTestId('invoice-line');
    expect(line.textContent).toContain('Upgrade pró-rata');
    expect(line.textContent).toContain('Upgrade de Profissional (Mensal) para Empresarial (Mensal): diferença pró-rata pelos dias de 20/11/2026 a 05/12/2026');
    expect(line.textContent).toContain('Valor proporcional, não o preço cheio: o plano Empresarial custa R$ 899,90/mês');
  });

  it('leads an enterprise administrator to its plan ("Plano e assinatura")', async () => {
    open(2, () => jsonResponse(page([])));
    await screen.findByText('Nenhum registro de faturas.');
    // Beside the side menu's entry, the page's own button.
    const onPage = screen.getAllByRole('link', { name: 'Plano e assinatura' }).filter((link) => !link.closest('nav'));
    expect(onPage.map((link) => link.getAttribute('href'))).toEqual(['/plans']);
  });

  it('says "Nenhum registro de faturas." when there are none, and searches on the server', async () => {
    const { requests } = open(2, () => jsonResponse(page([])));
    expect(await screen.findByText('Nenhum registro de faturas.')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Pesquisar Faturas' }), 'nº 42');
    await waitFor(() => expect(requests.some((r) => r.url === '/api/invoices?search=n%C2%BA+42&page=1&limit=10')).toBe(true));
  });

  it("shows the server's message when the list cannot be loaded, with a retry", async () => {
    open(2, () => errorResponse(500, 'Erro interno do servidor.', 'INTERNAL'));
    expect(await screen.findByText('Erro interno do servidor.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });

  it("warns the super admin when the listed enterprise's subscription is restricted", async () => {
    open(1, () => jsonResponse(page([invoice(3, { status: 'overdue' })], { subscription: { status: 'overdue', restricted_at: '2026-11-20T12:00:00.000Z' } })));
    expect(await screen.findByText('Acesso restrito')).toBeTruthy();
    expect(screen.getAllByText('Vencida').length).toBeGreaterThan(0);
  });

  it("leaves the warning to the shell's banner for the enterprise's own users (ADR 39)", async () => {
    open(2, () => jsonResponse(page([invoice(3, { status: 'overdue' })], { subscription: { status: 'overdue', restricted_at: '2026-11-20T12:00:00.000Z' } })));
    expect(await screen.findByText('Vencida')).toBeTruthy();
    expect(screen.queryByText('Acesso restrito')).toBeNull();
  });

  it('pages on the server', async () => {
    const { requests } = open(2, () => jsonResponse(page([invoice(1)], { total: 25 })));
    await screen.findByText('R$ 1.234,56');
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/invoices?page=3&limit=10')).toBe(true));
  });

  it('the super admin sees every enterprise with an Empresa column and a picker', async () => {
    open(1, () => jsonResponse(page([invoice(1)], { subscription: null })));
    await screen.findByText('R$ 1.234,56');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toContain('Empresa');
    expect(within(bodyRows()[0] as HTMLElement).getByText(ENTERPRISE.name)).toBeTruthy();
    expect(screen.getByPlaceholderText('Todas as empresas')).toBeTruthy();
  });

  it('is "Acesso negado" for an ordinary user, who never asks for invoices', async () => {
    const { requests } = open(3, () => jsonResponse(page([])));
    expect(await screen.findByRole('heading', { name: 'Acesso negado' })).toBeTruthy();
    expect(requests.some((r) => r.url.startsWith('/api/invoices'))).toBe(false);
  });
});
