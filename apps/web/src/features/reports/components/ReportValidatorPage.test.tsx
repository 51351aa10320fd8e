import { REPORT_MESSAGES } from '@sentinela/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { mockXhr } from '../../../test/xhr';

const pdf = (name = 'relatorio.pdf') => new File([new Uint8Array([37, 80, 68, 70, 45])], name, { type: 'application/pdf' });

async function dropFile(file: File, applyAccept = true) {
  const zone = await screen.findByText('Validar relatório');
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  expect(zone).toBeTruthy();
  await userEvent.setup({ applyAccept }).upload(input, file);
}

describe('/report/validator (R6)', () => {
  it('is open to visitors: a PDF the product generated is "Válido!", sent without a token', async () => {
    const { uploads } = mockXhr(() => ({
      status: 200,
      body: {
        valid: true,
        report: { _id: 'r-1', kind: 'device-history', generated_at: '2024-03-03T15:00:05.000Z', enterprise: 'Aurora', mac: 'AA:BB' },
      },
    }));
    renderApp('/report/validator');
    expect(await screen.findByRole('img', { name: 'Sentinela' })).toBeTruthy();
    await dropFile(pdf());

    const result = await screen.findByTestId('validation-result');
    expect(within(result).getByText(REPORT_MESSAGES.valid)).toBeTruthy();
    expect(within(result).getByText(REPORT_MESSAGES.validText)).toBeTruthy();
    expect(within(result).getByText('03/03/2024 12:00:05')).toBeTruthy();
    expect(uploads[0]).toMatchObject({ method: 'POST', url: '/api/report/validate' });
    expect(uploads[0]?.headers.authorization).toBeUndefined();
    expect(uploads[0]?.file?.name).toBe('relatorio.pdf');
  });

  it('an invoice PDF it recognises is "Válido!" and says which invoice (ADR 30)', async () => {
    mockXhr(() => ({
      status: 200,
      body: { valid: true, invoice: { _id: 'd-1', number: 42, generated_at: '2026-11-26T15:00:05.000Z', enterprise: 'Aurora Alimentos' } },
    }));
    renderApp('/report/validator');
    await dropFile(pdf('fatura-42.pdf'));
    const invoice = await screen.findByTestId('validated-invoice');
    expect(within(invoice).getByText('Fatura nº 42')).toBeTruthy();
    expect(within(invoice).getByText('Aurora Alimentos')).toBeTruthy();
    expect(within(invoice).getByText('26/11/2026 12:00:05')).toBeTruthy();
    expect(screen.queryByTestId('validated-report')).toBeNull();
    expect(within(screen.getByTestId('validation-result')).getByText(REPORT_MESSAGES.valid)).toBeTruthy();
  });

  it('X12 shows the RFC 3161 timestamp: its time with the zone and its authority, or why there is none (ADR 79)', async () => {
    const report = { _id: 'r-1', kind: 'device-history', generated_at: '2026-11-28T14:00:05.000Z', enterprise: 'Aurora', mac: 'AA:BB' };
    let timestamp: Record<string, unknown> = { status: 'stamped', kind: 'signature', time: '2026-11-28T14:00:06.000Z', authority: 'CN=AC Carimbo, O=ICP-Brasil, C=BR' };
    mockXhr(() => ({ status: 200, body: { valid: true, report, timestamp } }));
    renderApp('/report/validator');
    await dropFile(pdf());
    let shown = await screen.findByTestId('validated-timestamp');
    // The test environment's zone (TZ=America/Sao_Paulo, as the other dates of this file show).
    expect(within(shown).getByText('28/11/2026 11:00:06 (UTC-03:00)')).toBeTruthy();
    expect(within(shown).getByText('Autoridade: CN=AC Carimbo, O=ICP-Brasil, C=BR')).toBeTruthy();

    timestamp = { status: 'none', kind: null, time: null, authority: null };
    await dropFile(pdf('outro.pdf'));
    shown = await screen.findByTestId('validated-timestamp');
    expect(await within(shown).findByText('Sem carimbo de tempo')).toBeTruthy();

    timestamp = { status: 'pending', kind: null, time: null, authority: null };
    await dropFile(pdf('terceiro.pdf'));
    expect(await screen.findByText(/Pendente: a autoridade de carimbo do tempo não respondeu/)).toBeTruthy();
  });

  it('"Inválido!" with the server message when there is one, else the generic text', async () => {
    let answer: { valid: boolean; error?: string } = { valid: false, error: REPORT_MESSAGES.notGenerated };
    mockXhr(() => ({ status: 200, body: answer }));
    renderApp('/report/validator');
    await dropFile(pdf());
    const result = await screen.findByTestId('validation-result');
    expect(within(result).getByText(REPORT_MESSAGES.invalid)).toBeTruthy();
    expect(within(result).getByText(REPORT_MESSAGES.notGenerated)).toBeTruthy();

    answer = { valid: false };
    await dropFile(pdf('outro.pdf'));
    expect(await screen.findByText(REPORT_MESSAGES.invalidText)).toBeTruthy();
  });

  it('a refused upload marks the file invalid with the server error field', async () => {
    mockXhr(() => ({ status: 400, body: { statusCode: 400, code: 'INVALID_FILE', error: REPORT_MESSAGES.notPdf } }));
    renderApp('/report/validator');
    await dropFile(pdf('falso.pdf'));
    const result = await screen.findByTestId('validation-result');
    expect(within(result).getByText(REPORT_MESSAGES.invalid)).toBeTruthy();
    expect(within(result).getByText(REPORT_MESSAGES.notPdf)).toBeTruthy();
  });

  it('a file that is not a PDF is "Inválido!" at once, without sending it', async () => {
    const { uploads } = mockXhr(() => ({ status: 200, body: { valid: true } }));
    renderApp('/report/validator');
    await dropFile(new File(['olá'], 'notas.txt', { type: 'text/plain' }), false);
    const result = await screen.findByTestId('validation-result');
    expect(within(result).getByText(REPORT_MESSAGES.invalid)).toBeTruthy();
    expect(within(result).getByText(REPORT_MESSAGES.notPdf)).toBeTruthy();
    expect(uploads).toHaveLength(0);
  });

  it('signed-in users see it in their shell, and the check is the same', async () => {
    startSession(makeSession(3));
    mockFetch(() => jsonResponse([]));
    const { uploads } = mockXhr(() => ({ status: 200, body: { valid: true } }));
    renderApp('/report/validator');
    expect(await screen.findByTestId('side-menu')).toBeTruthy();
    await dropFile(pdf());
    expect(await screen.findByText(REPORT_MESSAGES.valid)).toBeTruthy();
    expect(uploads[0]?.headers.authorization).toBeUndefined();
  });
});
