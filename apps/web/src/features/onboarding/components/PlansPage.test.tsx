import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const OFFERED = [{ _id: 'p1', name: 'Essencial', cicle: [{ id: 'c1', name: 'Mensal', value: 149.9, features: [{ name: 'Até 10 sensores' }] }] }];

function serve(currentCycle: string) {
  return mockFetch((request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/plans') return jsonResponse(OFFERED);
    if (pathname === '/api/enterprise/plan')
      return jsonResponse({ current: { plan_id: 'old', cicle_id: currentCycle, plan_name: 'Legado', cicle_name: 'Anual', value: 999 }, requested: null });
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  });
}

describe('/plans with a retired current plan (ADR 28)', () => {
  it('says which plan the enterprise keeps when it is no longer offered', async () => {
    startSession(makeSession(2));
    serve('retired-cycle');
    renderApp('/plans');
    expect(await screen.findByText(/Este plano não é mais oferecido; a empresa continua com ele/)).toBeTruthy();
    expect(screen.getByText('Legado')).toBeTruthy();
  });

  it('says nothing of the kind when the current plan is offered (its card is marked)', async () => {
    startSession(makeSession(2));
    serve('c1');
    renderApp('/plans');
    expect(await screen.findByRole('button', { name: 'Plano atual Essencial Mensal' })).toBeTruthy();
    expect(screen.queryByText(/não é mais oferecido/)).toBeNull();
  });
});
