import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationSettings } from '@sentinela/contract';
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

describe('Configurações: Lembretes e escalonamento (ADR 24)', () => {
  it("an enterprise administrator sees the enterprise's minutes, is told what is out of bounds, and saves with PUT", async () => {
    startSession(makeSession(2));
    let saved = { reminder_minutes: 30, escalation_minutes: 60 };
    const { requests } = mockFetch(({ url, method, body }) => {
      if (url.endsWith('/status')) return jsonResponse(channels);
      if (url === '/api/enterprise/alarm-escalation' && method === 'GET') return jsonResponse(saved);
      if (url === '/api/enterprise/alarm-escalation' && method === 'PUT') {
        saved = body as typeof saved;
        return jsonResponse(saved);
      }
      return errorResponse(404, 'x');
    });
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('Lembretes e escalonamento')).toBeTruthy();
    const reminder = (await screen.findByLabelText('Lembrete a cada (minutos)')) as HTMLInputElement;
    const escalation = screen.getByLabelText('Escalonar para os administradores após (minutos)') as HTMLInputElement;
    expect(reminder.value).toBe('30');
    expect(escalation.value).toBe('60');

    await userEvent.clear(reminder);
    await userEvent.type(reminder, '3');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(/O intervalo dos lembretes deve ser 0 \(desligado\) ou um número inteiro de minutos entre 5 e 1440/)).toBeTruthy();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);

    await userEvent.clear(reminder);
    await userEvent.type(reminder, '0');
    await userEvent.clear(escalation);
    await userEvent.type(escalation, '90');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ reminder_minutes: 0, escalation_minutes: 90 }));
    expect(await screen.findByText('Lembretes e escalonamento salvos.')).toBeTruthy();
  });

  it('a user who is not an administrator does not see it (and it is not asked for)', async () => {
    startSession(makeSession(3));
    const { requests } = mockFetch(({ url }) => (url.endsWith('/status') ? jsonResponse(channels) : errorResponse(404, 'x')));
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('Por onde deseja receber notificações?')).toBeTruthy();
    await screen.findByRole('switch', { name: 'E-mail' });
    expect(screen.queryByText('Lembretes e escalonamento')).toBeNull();
    expect(requests.some((r) => r.url.includes('alarm-escalation'))).toBe(false);
  });
});
