import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CardListResponse, PaymentCard } from '@sentinela/contract';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { CardsCarousel, cardsPerView } from './CardsCarousel';

const TOKEN_URL = 'https://api.pagar.me/core/v5/tokens?appId=pk_test_abc';
const TOKENIZER = { provider: 'pagarme', public_key: 'pk_test_abc', token_url: TOKEN_URL } as const;
const year = new Date().getFullYear() + 2;

const card = (n: number, over: Partial<PaymentCard> = {}): PaymentCard => ({
  id: `5c1b8d7e-0000-4000-8000-00000000000${n}`,
  brand: 'Visa',
  last4: `000${n}`,
  holder: 'AURORA ALIMENTOS',
  exp_month: 3,
  exp_year: year,
  main: false,
  ...over,
});

function handler(list: CardListResponse, extra: Handler = () => errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND')): Handler {
  return (request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/cards' && request.method === 'GET') return jsonResponse(list);
    return extra(request);
  };
}

function renderCarousel() {
  startSession(makeSession(2));
  return renderWithProviders(<CardsCarousel />);
}

describe('CardsCarousel', () => {
  it('shows each card with brand and last four digits; the badge on the main one, "Tornar Principal" on the others', async () => {
    const { requests } = mockFetch(
      handler({ data: [card(1, { main: true }), card(2, { brand: 'Mastercard' })], tokenizer: TOKENIZER }, () => jsonResponse(card(2, { main: true }))),
    );
    renderCarousel();
    // A phone-wide window (jsdom matches no media query): one card at a time, arrows wrap around.
    const first = await screen.findByRole('article', { name: 'Cartão Visa final 0001' });
    expect(within(first).getByText('Cartão Principal')).toBeTruthy();
    expect(within(first).queryByRole('button', { name: 'Tornar Principal' })).toBeNull();
    expect(within(first).getByText('03/' + String(year % 100))).toBeTruthy();
    expect(screen.getByText('1 de 2')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Próximo cartão' }));
    const second = await screen.findByRole('article', { name: 'Cartão Mastercard final 0002' });
    expect(within(second).queryByText('Cartão Principal')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Próximo cartão' }));
    expect(await screen.findByRole('article', { name: 'Cartão Visa final 0001' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cartão anterior' }));
    await userEvent.click(within(await screen.findByRole('article', { name: 'Cartão Mastercard final 0002' })).getByRole('button', { name: 'Tornar Principal' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST' && r.url === `/api/cards/${card(2).id}/main`)).toBe(true));
  });

  it('adds a card: the number goes to the provider, only the token to our server', async () => {
    const { requests } = mockFetch(
      handler({ data: [], tokenizer: TOKENIZER }, (request) => {
        if (request.url === TOKEN_URL) return jsonResponse({ id: 'token_abc123', type: 'card', card: { last_four_digits: '0010', brand: 'Visa' } });
        if (request.url === '/api/cards' && request.method === 'POST') return jsonResponse(card(1, { last4: '0010', main: true }), 201);
        return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
      }),
    );
    renderCarousel();
    expect(await screen.findByText('Nenhum cartão cadastrado.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar cartão' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText(/Número do cartão/), '4000000000000010');
    expect((dialog.getByLabelText(/Número do cartão/) as HTMLInputElement).value).toBe('4000 0000 0000 0010');
    await userEvent.type(dialog.getByLabelText(/Nome impresso/), 'AURORA ALIMENTOS');
    await userEvent.type(dialog.getByLabelText(/Validade/), `03${year % 100}`);
    await userEvent.type(dialog.getByLabelText(/CVV/), '123');
    await userEvent.click(dialog.getByRole('button', { name: 'Salvar cartão' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const tokenCall = requests.find((r) => r.url === TOKEN_URL)!;
    expect(tokenCall.method).toBe('POST');
    expect(tokenCall.headers.authorization).toBeUndefined();
    expect(tokenCall.body).toEqual({ type: 'card', card: { number: '4000000000000010', holder_name: 'AURORA ALIMENTOS', exp_month: 3, exp_year: year, cvv: '123' } });
    const ours = requests.filter((r) => r.url.startsWith('/api/'));
    expect(ours.find((r) => r.method === 'POST')!.body).toEqual({ token: 'token_abc123' });
    for (const request of ours) expect(JSON.stringify(request.body ?? '')).not.toMatch(/4000000000000010|"cvv"/);
  });

  it('checks the card before any call, and shows the provider refusal', async () => {
    const { requests } = mockFetch(
      handler({ data: [], tokenizer: TOKENIZER }, (request) =>
        request.url === TOKEN_URL ? jsonResponse({ message: 'The request is invalid.', errors: { 'request.card.cvv': ['invalid'] } }, 422) : errorResponse(500, 'x'),
      ),
    );
    renderCarousel();
    await userEvent.click(await screen.findByRole('button', { name: 'Adicionar cartão' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText(/Número do cartão/), '4000000000000011');
    await userEvent.click(dialog.getByRole('button', { name: 'Salvar cartão' }));
    expect(await dialog.findByText('Número do cartão inválido.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await userEvent.clear(dialog.getByLabelText(/Número do cartão/));
    await userEvent.type(dialog.getByLabelText(/Número do cartão/), '4000000000000010');
    await userEvent.type(dialog.getByLabelText(/Nome impresso/), 'AURORA');
    await userEvent.type(dialog.getByLabelText(/Validade/), '0101');
    await userEvent.type(dialog.getByLabelText(/CVV/), '123');
    await userEvent.click(dialog.getByRole('button', { name: 'Salvar cartão' }));
    expect(await dialog.findByText('Cartão vencido.')).toBeTruthy();
    await userEvent.clear(dialog.getByLabelText(/Validade/));
    await userEvent.type(dialog.getByLabelText(/Validade/), `03${year % 100}`);
    await userEvent.click(dialog.getByRole('button', { name: 'Salvar cartão' }));
    expect(await dialog.findByText('O provedor de pagamento não aceitou o CVV.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/'))).toHaveLength(0);
  });

  it('without a provider, the add-card button explains it and points to PIX', async () => {
    mockFetch(handler({ data: [], tokenizer: null }));
    renderCarousel();
    await userEvent.click(await screen.findByRole('button', { name: 'Adicionar cartão' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Pagamento por cartão indisponível')).toBeTruthy();
    expect(dialog.getByText('Pagar Fatura')).toBeTruthy();
    expect(dialog.queryByLabelText(/Número do cartão/)).toBeNull();
  });

  it('removes a card only after confirmation', async () => {
    const { requests } = mockFetch(handler({ data: [card(1, { main: true })], tokenizer: TOKENIZER }, () => jsonResponse({ success: true })));
    renderCarousel();
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Visa final 0001' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/Remover o cartão Visa final 0001\?/)).toBeTruthy();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(dialog.getByRole('button', { name: 'Remover' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE' && r.url === `/api/cards/${card(1).id}`)).toBe(true));
  });

  it('shows 3 cards from 1024 px and 5 from 3000 px, wrapping around', async () => {
    expect([cardsPerView('wide'), cardsPerView('medium'), cardsPerView('narrow')]).toEqual([5, 3, 1]);
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...original(query), matches: query === '(min-width: 1024px)' })) as typeof window.matchMedia;
    try {
      mockFetch(handler({ data: [card(1, { main: true }), card(2), card(3), card(4)], tokenizer: TOKENIZER }));
      renderCarousel();
      await screen.findByRole('article', { name: 'Cartão Visa final 0003' });
      expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Cartão Visa final 0001', 'Cartão Visa final 0002', 'Cartão Visa final 0003']);
      await userEvent.click(screen.getByRole('button', { name: 'Cartão anterior' }));
      await waitFor(() =>
        expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Cartão Visa final 0004', 'Cartão Visa final 0001', 'Cartão Visa final 0002']),
      );
      expect(screen.getByText('4 de 4')).toBeTruthy();
    } finally {
      window.matchMedia = original;
    }
  });

  it('shows the server error', async () => {
    mockFetch(() => errorResponse(400, 'Escolha a empresa dos cartões.'));
    renderCarousel();
    expect(await screen.findByText('Escolha a empresa dos cartões.')).toBeTruthy();
  });
});
