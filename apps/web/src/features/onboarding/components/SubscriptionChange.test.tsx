import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_MESSAGES, SUBSCRIPTION_MESSAGES, type Invoice, type Subscription, type SubscriptionStanding } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession, makeSubscription } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

/** /plans for an enterprise's administrator (ADR 32), the overdue/restricted banner, and /complete-register step 3. */
const PLANS = [
  { _id: 'p1', name: 'Essencial', cicle: [{ id: 'c1', name: 'Mensal', value: 149.9, features: [{ name: 'Até 10 sensores' }] }] },
  { _id: 'p2', name: 'Profissional', cicle: [{ id: 'c2', name: 'Mensal', value: 399.9, features: [{ name: 'Até 50 sensores' }] }] },
  { _id: 'p3', name: 'Empresarial', cicle: [{ id: 'c3', name: 'Mensal', value: 899.9, features: [{ name: 'Até 200 sensores' }] }] },
];

const invoice = (overrides: Partial<Invoice> = {}): Invoice => ({
  id: 'a0000000-0000-4000-8000-000000000009',
  number: 77,
  enterprise: { _id: 'ent-1', name: 'Frigorífico Boa Vista' },
  data: '2026-11-20T12:00:00.000Z',
  due_at: '2026-11-25T12:00:00.000Z',
  period_start: '2026-11-20T12:00:00.000Z',
  period_end: '2026-12-05T12:00:00.000Z',
  plan: { _id: 'p3', name: 'Empresarial', cicle_id: 'c3', cicle_name: 'Mensal' },
  modo: 'Mensal',
  transacao: 'ABCDEFGHIJKLMNOPQRSTUVWXY',
  metodo: 'PIX',
  valor: 25000,
  status: 'pending',
  pending: true,
  paid_at: null,
  kind: 'cycle',
  plan_value_cents: null,
  upgraded_from: null,
  ...overrides,
});

const subscription = makeSubscription;

const standing = (overrides: Partial<SubscriptionStanding> = {}): SubscriptionStanding => ({
  status: 'active', restricted_at: null, restricts_at: null, overdue_invoice: null, ...overrides,
});

function serve(options: { sub?: Subscription | null | (() => Subscription); standing?: SubscriptionStanding; onPut?: (body: unknown) => Response; onCancel?: () => Response }) {
  return mockFetch((request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/subscription/pending-change' && request.method === 'DELETE') return options.onCancel!();
    if (pathname === '/api/plans') return jsonResponse(PLANS);
    if (pathname === '/api/enterprise/plan') return jsonResponse({ current: null, requested: null });
    if (pathname === '/api/subscription/standing') return jsonResponse(options.standing ?? standing());
    if (pathname === '/api/subscription' && request.method === 'PUT') return options.onPut!(request.body);
    if (pathname === '/api/subscription') {
      const sub = typeof options.sub === 'function' ? options.sub() : options.sub;
      return sub ? jsonResponse(sub) : errorResponse(404, 'A empresa ainda não tem assinatura.', 'NOT_FOUND');
    }
    if (pathname.endsWith('/pix')) return jsonResponse({ brcode: '00020126580014br.gov.bcb.pix0136codigo-de-teste', qrcode: 'data:image/png;base64,iVBORw0KGgo=' });
    if (pathname.startsWith('/api/invoices/')) return jsonResponse({ ...invoice(), payment: null });
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  }, { shell: false });
}

describe('/plans: subscription changes (ADR 32)', () => {
  it('shows the subscription and a pending change', async () => {
    startSession(makeSession(2));
    serve({ sub: subscription({ pending_change: { plan_id: 'p1', plan_name: 'Essencial', cicle_id: 'c1', cicle_name: 'Mensal', value_cents: 14990, requested_at: '2026-11-20T12:00:00.000Z', starts_at: '2026-12-05T12:00:00.000Z' } }) });
    renderApp('/plans');
    const panel = await screen.findByTestId('subscription-panel');
    expect(within(panel).getByText('Profissional')).toBeTruthy();
    expect(within(panel).getByText('Ativa')).toBeTruthy();
    expect(within(panel).getByText(/Troca agendada:/).textContent).toContain('Essencial — Mensal (R$ 149,90/mês), a partir de 05/12/2026');
    expect(within(panel).getByRole('button', { name: 'Cancelar troca' })).toBeTruthy();
  });

  it('an upgrade is confirmed, then its pro-rated invoice is shown with its PIX code', async () => {
    startSession(makeSession(2));
    const puts: unknown[] = [];
    serve({
      sub: subscription(),
      onPut: (body) => {
        puts.push(body);
        return jsonResponse({
          success: true, message: 'Plano alterado! O novo plano já vale, e a fatura proporcional aos dias restantes do período foi emitida.',
          effect: 'now',
          invoice: invoice({ kind: 'proration', plan_value_cents: 89990, upgraded_from: { plan_name: 'Profissional', cicle_name: 'Mensal', value_cents: 39990 } }),
          subscription: subscription({ current: { plan_id: 'p3', plan_name: 'Empresarial', cicle_id: 'c3', cicle_name: 'Mensal', value_cents: 89990 } }),
        });
      },
    });
    renderApp('/plans');
    await screen.findByTestId('subscription-panel');
    const cards = await screen.findAllByTestId('plan-card');
    await userEvent.click(within(cards[2]!).getByRole('button'));
    expect((await screen.findByText(/Upgrade para Empresarial — Mensal: vale agora/)).textContent).toContain('até 05/12/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar troca' }));
    const shown = await screen.findByTestId('change-invoice');
    expect(within(shown).getByText('Fatura nº 77: R$ 250,00')).toBeTruthy();
    // Pro-rated, not the plan's full price: the invoice says so, with the full price for reference (ADR 75).
    expect(shown.textContent).toContain('Upgrade de Profissional (Mensal) para Empresarial (Mensal): diferença pró-rata pelos dias de 20/11/2026 a 05/12/2026');
    expect(within(shown).getByTestId('change-invoice-reference').textContent).toBe(
      'Valor proporcional, não o preço cheio: o plano Empresarial custa R$ 899,90/mês; o plano anterior custava R$ 399,90/mês. Esta fatura cobra só a diferença pelos dias restantes do período já faturado.',
    );
    expect(await within(shown).findByDisplayValue(/codigo-de-teste/)).toBeTruthy();
    expect(puts).toEqual([{ plan_id: 'p3', cicle_id: 'c3' }]);
  });

  it('"Cancelar troca" replaces the scheduling message with its own', async () => {
    startSession(makeSession(2));
    const scheduled = subscription({
      pending_change: { plan_id: 'p1', plan_name: 'Essencial', cicle_id: 'c1', cicle_name: 'Mensal', value_cents: 14990, requested_at: '2026-11-20T12:00:00.000Z', starts_at: '2026-12-05T12:00:00.000Z' },
    });
    let current = subscription();
    serve({
      sub: () => current,
      onPut: () => {
        current = scheduled;
        return jsonResponse({ success: true, message: PLAN_MESSAGES.requested, effect: 'next_cycle', invoice: null, subscription: scheduled });
      },
      onCancel: () => {
        current = subscription();
        return jsonResponse({ success: true, message: SUBSCRIPTION_MESSAGES.pendingCancelled });
      },
    });
    renderApp('/plans');
    await screen.findByTestId('subscription-panel');
    const cards = await screen.findAllByTestId('plan-card');
    await userEvent.click(within(cards[0]!).getByRole('button'));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirmar troca' }));
    expect(await screen.findByText(PLAN_MESSAGES.requested)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar troca' }));
    expect(await screen.findByText(SUBSCRIPTION_MESSAGES.pendingCancelled)).toBeTruthy();
    expect(screen.queryByText(PLAN_MESSAGES.requested)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancelar troca' })).toBeNull();

    // And a new choice clears the cancellation's message.
    await userEvent.click(within((await screen.findAllByTestId('plan-card'))[0]!).getByRole('button'));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirmar troca' }));
    expect(await screen.findByText(PLAN_MESSAGES.requested)).toBeTruthy();
    expect(screen.queryByText(SUBSCRIPTION_MESSAGES.pendingCancelled)).toBeNull();
  });

  it('a downgrade says it waits for the next cycle; a refusal is shown', async () => {
    startSession(makeSession(2));
    serve({ sub: subscription(), onPut: () => errorResponse(402, 'A assinatura da empresa está restrita porque a fatura nº 5 não foi paga.', 'PAYMENT_REQUIRED') });
    renderApp('/plans');
    await screen.findByTestId('subscription-panel');
    const cards = await screen.findAllByTestId('plan-card');
    await userEvent.click(within(cards[0]!).getByRole('button'));
    expect((await screen.findByText(/A troca para Essencial — Mensal começa no próximo ciclo/)).textContent).toContain('em 05/12/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar troca' }));
    expect(await screen.findByText(/fatura nº 5 não foi paga/)).toBeTruthy();
  });
});

describe('overdue / restricted banner (ADR 32, ADR 39)', () => {
  const overdue = { id: 'i1', number: 12, valor: 14990, due_at: '2026-11-10T12:00:00.000Z' };

  it('warns the administrators with a link to Financeiro', async () => {
    startSession(makeSession(2));
    serve({ sub: subscription(), standing: standing({ status: 'overdue', restricts_at: '2026-11-20T12:00:00.000Z', overdue_invoice: overdue }) });
    renderApp('/plans');
    const banner = await screen.findByTestId('subscription-banner');
    expect(banner.textContent).toContain('Fatura vencida');
    expect(banner.textContent).toContain('A fatura nº 12 (R$ 149,90) venceu em 10/11/2026.');
    expect(banner.textContent).toContain('Sem o pagamento até 20/11/2026');
    expect(within(banner).getByRole('link', { name: 'Pagar em Financeiro' }).getAttribute('href')).toBe('/financial');
  });

  it('tells other users the access is restricted, without a payment link', async () => {
    startSession(makeSession(3));
    serve({ standing: standing({ status: 'overdue', restricted_at: '2026-11-21T12:00:00.000Z', overdue_invoice: overdue }) });
    renderApp('/plans');
    const banner = await screen.findByTestId('subscription-banner');
    expect(banner.textContent).toContain('Acesso restrito por falta de pagamento');
    expect(banner.textContent).toContain('Leituras, alarmes, histórico e relatórios continuam funcionando.');
    expect(within(banner).queryByRole('link')).toBeNull();
    expect(banner.textContent).toContain('Avise um administrador da empresa.');
  });

  it('is absent when nothing is overdue', async () => {
    startSession(makeSession(2));
    serve({ sub: subscription() });
    renderApp('/plans');
    await screen.findByTestId('subscription-panel');
    expect(screen.queryByTestId('subscription-banner')).toBeNull();
  });
});

describe('/complete-register step 3 (issue 13 item 6)', () => {
  it('shows the chosen plan and the first invoice with its PIX code', async () => {
    startSession(makeSession(2));
    serve({ sub: subscription({ open_invoice: invoice({ number: 1, valor: 39990, plan: { _id: 'p2', name: 'Profissional', cicle_id: 'c2', cicle_name: 'Mensal' } }) }) });
    renderApp('/complete-register?step=3');
    const first = await screen.findByTestId('first-invoice');
    expect(within(first).getByText('Fatura nº 1: R$ 399,90')).toBeTruthy();
    expect(await within(first).findByDisplayValue(/codigo-de-teste/)).toBeTruthy();
    expect(screen.getByText('Profissional — Mensal')).toBeTruthy();
  });

  it('without a plan, sends to Planos', async () => {
    startSession(makeSession(2));
    serve({ sub: null });
    renderApp('/complete-register?step=3');
    expect(await screen.findByText(/Sua empresa ainda não escolheu um plano/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Escolher plano' })).toBeTruthy();
  });
});
