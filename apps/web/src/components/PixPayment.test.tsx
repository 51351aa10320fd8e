import { screen } from '@testing-library/react';
import type { InvoiceDetail } from '@sentinela/contract';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../test/fetch';
import { makeSession } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { PixPayment } from './PixPayment';

const ID = 'a0000000-0000-4000-8000-000000000001';
const BRCODE = '00020126360014br.gov.bcb.pix0114123456789012345204000053039865406123.455802BR5909SENTINELA6009SAO PAULO62290525ABCDEFGHIJKLMNOPQRSTUVWXY6304ABCD';
const QR = 'data:image/png;base64,iVBORw0KGgo=';

function invoice(overrides: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return {
    id: ID,
    number: 42,
    enterprise: { _id: 'e1', name: 'Aurora' },
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
    payment: null,
    ...overrides,
  };
}

describe('PixPayment', () => {
  it('shows the amount in R$, the QR code and the copia e cola code of the invoice', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch((r) =>
      r.url.endsWith('/pix') ? jsonResponse({ brcode: BRCODE, qrcode: QR }) : jsonResponse(invoice()),
    );
    renderWithProviders(<PixPayment invoiceId={ID} />);
    expect((await screen.findByTestId('pix-amount')).textContent).toBe('R$ 1.234,56');
    expect(screen.getByText('Fatura nº 42 · vencimento 10/11/2026')).toBeTruthy();
    expect(((await screen.findByLabelText('PIX copia e cola')) as HTMLTextAreaElement).value).toBe(BRCODE);
    expect(screen.getByRole('img', { name: 'QR Code PIX da fatura nº 42' }).getAttribute('src')).toBe(QR);
    expect(screen.getByRole('button', { name: 'Copiar código' })).toBeTruthy();
    expect(requests.map((r) => r.url)).toEqual(expect.arrayContaining([`/api/invoices/${ID}`, `/api/invoices/${ID}/pix`]));
  });

  it('says when the invoice has been paid, and tells the caller once', async () => {
    startSession(makeSession(2));
    let paid = false;
    mockFetch((r) => {
      if (r.url.endsWith('/pix')) return jsonResponse({ brcode: BRCODE, qrcode: QR });
      return jsonResponse(paid ? invoice({ status: 'paid', pending: false, paid_at: '2026-11-09T15:30:00.000Z' }) : invoice());
    });
    const onPaid = vi.fn();
    renderWithProviders(<PixPayment invoiceId={ID} onPaid={onPaid} pollIntervalMs={30} />);
    await screen.findByLabelText('PIX copia e cola');
    paid = true;
    expect((await screen.findByTestId('pix-paid')).textContent).toContain('Fatura nº 42 de R$ 1.234,56 paga em 09/11/2026 12:30:00.');
    expect(screen.queryByLabelText('PIX copia e cola')).toBeNull();
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it("shows the server's reason when no PIX code can be made", async () => {
    startSession(makeSession(2));
    mockFetch((r) =>
      r.url.endsWith('/pix') ? errorResponse(409, 'Pagamento por PIX não configurado neste servidor.', 'CONFLICT') : jsonResponse(invoice()),
    );
    renderWithProviders(<PixPayment invoiceId={ID} />);
    expect(await screen.findByText('Pagamento por PIX não configurado neste servidor.')).toBeTruthy();
    expect(screen.getByTestId('pix-amount').textContent).toBe('R$ 1.234,56');
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });

  it('says so when the invoice cannot be found', async () => {
    startSession(makeSession(2));
    mockFetch(() => errorResponse(404, 'Fatura não encontrada.', 'NOT_FOUND'));
    renderWithProviders(<PixPayment invoiceId={ID} />);
    expect(await screen.findByText('Fatura não encontrada.')).toBeTruthy();
    expect(screen.queryByLabelText('PIX copia e cola')).toBeNull();
  });
});
