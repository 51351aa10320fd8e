import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationSettings, RetentionSettings } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { SettingsPage } from './SettingsPage';

const channels: NotificationSettings = {
  channels: [{ channel: 'email', enabled: false, available: true, reason: null, action: null }],
  telegram: { configured: false, linked: false, bot_url: null },
};

describe('Configurações: Retenção de dados (X14, ADR 0081)', () => {
  it('an enterprise administrator sees the periods, is told what is out of bounds, asks a legal hold with its reason and saves with PUT', async () => {
    startSession(makeSession(2));
    let saved: RetentionSettings = { enterprise_id: 'e1', readings_days: 1827, report_files_days: 1827, legal_hold: false, legal_hold_reason: null, minimum_readings_days: 30 };
    const { requests } = mockFetch(({ url, method, body }) => {
      if (url.endsWith('/status')) return jsonResponse(channels);
      if (url === '/api/enterprise/compliance') return jsonResponse({ enterprise_id: 'e1', gxp: false });
      if (url === '/api/enterprise/retention' && method === 'GET') return jsonResponse(saved);
      if (url === '/api/enterprise/retention' && method === 'PUT') {
        saved = { ...saved, ...(body as Partial<RetentionSettings>) };
        return jsonResponse(saved);
      }
      return errorResponse(404, 'x');
    });
    renderWithProviders(<SettingsPage />);
    const form = within(await screen.findByRole('form', { name: 'Retenção de dados' }));
    const readings = form.getByLabelText('Guardar as leituras por (dias)') as HTMLInputElement;
    expect(readings.value).toBe('1827');

    // An emptied period (the field clamps typed numbers to its bounds when it loses focus).
    await userEvent.clear(readings);
    await userEvent.click(form.getByRole('switch', { name: /Retenção legal/ }));
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    expect(await form.findByText('Informe um número inteiro de dias entre 30 e 36600.')).toBeTruthy();
    expect(form.getByText('Informe o motivo da retenção legal.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);

    await userEvent.clear(readings);
    await userEvent.type(readings, '3650');
    await userEvent.click(form.getByLabelText(/Motivo da retenção legal/));
    await userEvent.paste('Inspeção da vigilância sanitária');
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
        readings_days: 3650, report_files_days: 1827, legal_hold: true, legal_hold_reason: 'Inspeção da vigilância sanitária',
      }),
    );
    expect(await screen.findByText('Retenção de dados salva.')).toBeTruthy();
    expect(await screen.findByText(/Retenção legal ativa/)).toBeTruthy();
  });

  it('in GxP mode the minimum is five years and a reason for the change is required', async () => {
    startSession(makeSession(2));
    const settings: RetentionSettings = { enterprise_id: 'e1', readings_days: 1827, report_files_days: 1827, legal_hold: false, legal_hold_reason: null, minimum_readings_days: 1827 };
    const { requests } = mockFetch(({ url, method }) => {
      if (url.endsWith('/status')) return jsonResponse(channels);
      if (url === '/api/enterprise/compliance') return jsonResponse({ enterprise_id: 'e1', gxp: true });
      if (url === '/api/enterprise/retention' && method === 'GET') return jsonResponse(settings);
      return errorResponse(404, 'x');
    });
    renderWithProviders(<SettingsPage />);
    const form = within(await screen.findByRole('form', { name: 'Retenção de dados' }));
    expect(form.getByText(/Mínimo de 1827 dias no modo GxP/)).toBeTruthy();
    await userEvent.click(form.getByRole('button', { name: 'Salvar' }));
    expect(await form.findByText('Informe o motivo da alteração.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });
});
