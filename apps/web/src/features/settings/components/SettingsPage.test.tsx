import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationSettings } from '@sentinela/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { SettingsPage } from './SettingsPage';

function settings(enabled: string[], linked = false): NotificationSettings {
  const unavailable = (reason: string, action: { label: string; href: string } | null = null) => ({ available: false, reason, action });
  return {
    channels: [
      { channel: 'push', enabled: false, ...unavailable('As notificações push ainda não estão disponíveis neste servidor.') },
      { channel: 'email', enabled: enabled.includes('email'), available: true, reason: null, action: null },
      { channel: 'sms', enabled: false, ...unavailable('O envio por SMS ainda não foi ativado neste servidor. Peça ao responsável pela plataforma Sentinela para ativá-lo.') },
      linked
        ? { channel: 'telegram', enabled: enabled.includes('telegram'), available: true, reason: null, action: null }
        : { channel: 'telegram', enabled: false, ...unavailable('Vincule sua conta do Telegram.', { label: 'Abrir o bot no Telegram', href: 'https://t.me/bot' }) },
      { channel: 'whatsapp', enabled: false, ...unavailable('Cadastre um telefone no seu perfil.', { label: 'Ir para o Perfil', href: '/profile' }) },
    ],
    telegram: { configured: true, linked, bot_url: 'https://t.me/bot' },
  };
}

describe('SettingsPage (A10)', () => {
  beforeEach(() => startSession(makeSession(3)));

  it('shows each channel, why the unusable ones are off, and turns e-mail on with POST { channel }', async () => {
    let enabled: string[] = [];
    const { requests } = mockFetch(({ url, method, body }) => {
      if (url.endsWith('/status')) return jsonResponse(settings(enabled));
      if (method === 'POST') {
        enabled = [...enabled, (body as { channel: string }).channel];
        return jsonResponse(enabled);
      }
      return errorResponse(404, 'x');
    });
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('Por onde deseja receber notificações?')).toBeTruthy();
    const email = await screen.findByRole('switch', { name: 'E-mail' });
    expect((screen.getByRole('switch', { name: /^Telegram/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Abrir o bot no Telegram' }).getAttribute('href')).toBe('https://t.me/bot');
    expect(screen.getByRole('link', { name: 'Ir para o Perfil' }).getAttribute('href')).toBe('/profile');
    expect(screen.getByText(/O envio por SMS ainda não foi ativado neste servidor/)).toBeTruthy();

    await userEvent.click(email);
    await waitFor(() => expect((screen.getByRole('switch', { name: 'E-mail' }) as HTMLInputElement).checked).toBe(true));
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.url).toBe('/api/me/config/notification-channel');
    expect(post?.body).toEqual({ channel: 'email' });
  });

  it('shows the server refusal, and "Desvincular" when Telegram is linked', async () => {
    mockFetch(({ url, method }) => {
      if (url.endsWith('/status')) return jsonResponse(settings(['telegram'], true));
      if (method === 'DELETE' && url.endsWith('/notification-channel')) return errorResponse(422, 'Não foi possível.');
      return errorResponse(404, 'x');
    });
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('Telegram vinculado')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Desvincular' })).toBeTruthy();
    await userEvent.click(screen.getByRole('switch', { name: /^Telegram/ }));
    expect(await screen.findByText('Não foi possível.')).toBeTruthy();
  });

  it('says "Erro!" when the settings cannot be loaded', async () => {
    mockFetch(() => errorResponse(500, 'Erro interno.'));
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('Erro!')).toBeTruthy();
  });
});
