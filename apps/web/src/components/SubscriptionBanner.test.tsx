import type { SubscriptionStanding } from '@sentinela/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSession } from '../lib/session';
import { errorResponse, GOOD_STANDING, jsonResponse, mockFetch, SHELL_REQUESTS, type RecordedRequest } from '../test/fetch';
import { makeDevice, makeSession, makeSubscription } from '../test/fixtures';
import { renderApp } from '../test/render';

/** The overdue/restricted banner in the signed-in shell (ADR 32, ADR 39): every screen, read once, no timer. */
const OVERDUE = { id: 'i1', number: 12, valor: 14990, due_at: '2026-11-10T12:00:00.000Z' };
const RESTRICTED: SubscriptionStanding = { status: 'overdue', restricted_at: '2026-11-21T12:00:00.000Z', restricts_at: null, overdue_invoice: OVERDUE };
const MIN = 60_000;

const standingCalls = (requests: readonly RecordedRequest[]) => requests.filter((r) => r.url === SHELL_REQUESTS.standing).length;

/** A fake server for the shell and a few screens; the standing it answers can change during the test. */
function serve(standing: { current: SubscriptionStanding }, extra: (request: RecordedRequest) => Response | null = () => null) {
  return mockFetch(
    (request) => {
      if (request.url === SHELL_REQUESTS.standing) return jsonResponse(standing.current);
      if (request.url.startsWith('/api/devices-by-user/') || request.url.startsWith('/api/beacon-device/all')) return jsonResponse([makeDevice(1)]);
      return extra(request) ?? errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
    },
    { shell: false },
  );
}

afterEach(() => {
  vi.useRealTimers();
});

// Each test renders the whole app through several screens: slow on a loaded machine, hence the longer timeouts.
describe('the subscription banner in the signed-in shell', { timeout: 60_000 }, () => {
  it('shows the restriction on every screen, naming the invoice, what is blocked and Financeiro, asked once', async () => {
    startSession(makeSession(2));
    const { requests, router } = { ...serve({ current: RESTRICTED }), ...renderApp('/my-devices') };
    // The first test of the file loads the lazy shell and screen.
    expect(await screen.findByText('Sensor 01', {}, { timeout: 45_000 })).toBeTruthy();
    const banner = await screen.findByTestId('subscription-banner');
    expect(banner.textContent).toContain('Acesso restrito por falta de pagamento');
    expect(banner.textContent).toContain('A fatura nº 12 (R$ 149,90) venceu em 10/11/2026.');
    expect(banner.textContent).toContain('Novos usuários, novos dispositivos e upgrades de plano estão bloqueados até o pagamento.');
    expect(within(banner).getByRole('link', { name: 'Pagar em Financeiro' }).getAttribute('href')).toBe('/financial');

    await act(() => router.navigate('/reports'));
    await screen.findByRole('heading', { name: 'Relatórios' });
    expect(screen.getByTestId('subscription-banner').textContent).toContain('Acesso restrito por falta de pagamento');
    expect(standingCalls(requests)).toBe(1);
  });

  it('reads the standing again on a screen change once it is 5 minutes old, never by itself', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z'), toFake: ['Date'] });
    startSession(makeSession(3));
    const standing = { current: GOOD_STANDING };
    const { requests, router } = { ...serve(standing), ...renderApp('/my-devices') };
    await screen.findByText('Sensor 01');
    await waitFor(() => expect(standingCalls(requests)).toBe(1));
    expect(screen.queryByTestId('subscription-banner')).toBeNull();

    // The bill falls overdue meanwhile; an idle screen does not ask (a timer would keep the session alive, P2).
    standing.current = { ...RESTRICTED, restricted_at: null, restricts_at: '2026-11-30T12:00:00.000Z' };
    vi.setSystemTime(Date.now() + 4 * MIN);
    await act(() => router.navigate('/reports'));
    await screen.findByRole('heading', { name: 'Relatórios' });
    expect(standingCalls(requests)).toBe(1);

    vi.setSystemTime(Date.now() + 2 * MIN);
    await act(() => router.navigate('/my-devices'));
    const banner = await screen.findByTestId('subscription-banner');
    expect(banner.textContent).toContain('Fatura vencida');
    expect(banner.textContent).toContain('Sem o pagamento até 30/11/2026');
    // Users who cannot pay are told who can.
    expect(within(banner).queryByRole('link')).toBeNull();
    expect(banner.textContent).toContain('Avise um administrador da empresa.');
    expect(standingCalls(requests)).toBe(2);
  });

  it('asks nothing for a user without an enterprise (the super admin)', async () => {
    startSession({ ...makeSession(1), enterprise: { _id: null, name: null } });
    const { requests } = serve({ current: RESTRICTED });
    renderApp('/my-devices');
    await screen.findByText('Sensor 01');
    expect(standingCalls(requests)).toBe(0);
    expect(screen.queryByTestId('subscription-banner')).toBeNull();
  });

  it('appears at once when an action is refused with 402', async () => {
    startSession(makeSession(2));
    const standing = { current: GOOD_STANDING };
    const message = 'A assinatura da empresa está restrita porque a fatura nº 12 (R$ 149,90, vencida em 10/11/2026) não foi paga.';
    const subscription = makeSubscription({ current: { plan_id: 'p1', plan_name: 'Essencial', cicle_id: 'c1', cicle_name: 'Mensal', value_cents: 14990 } });
    const plan = { _id: 'p2', name: 'Profissional', cicle: [{ id: 'c2', name: 'Mensal', value: 399.9, features: [] }] };
    const { requests } = serve(standing, (request) => {
      if (request.url === '/api/plans') return jsonResponse([plan]);
      if (request.url === '/api/enterprise/plan') return jsonResponse({ current: null, requested: null });
      if (request.url === '/api/subscription' && request.method === 'GET') return jsonResponse(subscription);
      if (request.url === '/api/subscription' && request.method === 'PUT') {
        standing.current = RESTRICTED;
        return errorResponse(402, message, 'PAYMENT_REQUIRED');
      }
      return null;
    });
    renderApp('/plans');
    const card = await screen.findByTestId('plan-card');
    expect(screen.queryByTestId('subscription-banner')).toBeNull();
    await userEvent.click(within(card).getByRole('button'));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirmar troca' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect((await screen.findByTestId('subscription-banner')).textContent).toContain('Acesso restrito por falta de pagamento');
    expect(standingCalls(requests)).toBe(2);
  });
});
