import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationChannelStatus } from '@sentinela/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { SettingsPage } from './SettingsPage';

const KEY = 'B'.repeat(87);
const ENDPOINT = 'https://push.example/sub/1';
const SUBSCRIPTION = { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } };

function status(enabled: boolean, subscribed: boolean): { channels: NotificationChannelStatus[]; telegram: { configured: boolean; linked: boolean; bot_url: null } } {
  return {
    channels: [
      subscribed
        ? { channel: 'push', enabled, available: true, reason: null, action: null }
        : { channel: 'push', enabled: false, available: false, reason: 'Ative as notificações neste navegador: permita as notificações quando o navegador pedir.', action: { label: 'Ativar neste navegador', href: '/settings#push' } },
    ],
    telegram: { configured: false, linked: false, bot_url: null },
  };
}

/** A browser with push: a service worker container whose push manager subscribes, and the given permission answer. */
function stubPushBrowser(permission: NotificationPermission) {
  let current: { endpoint: string; options: { applicationServerKey: ArrayBuffer | null }; toJSON: () => unknown; unsubscribe: () => Promise<boolean> } | null = null;
  const subscribe = vi.fn(async ({ applicationServerKey }: { applicationServerKey: Uint8Array }) => {
    current = { endpoint: ENDPOINT, options: { applicationServerKey: applicationServerKey.buffer as ArrayBuffer }, toJSON: () => SUBSCRIPTION, unsubscribe: async () => true };
    return current;
  });
  const registration = { pushManager: { subscribe, getSubscription: async () => current } };
  const register = vi.fn(async () => registration);
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { register, ready: Promise.resolve(registration), getRegistration: async () => (current ? registration : undefined) } });
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission: 'default', requestPermission: vi.fn(async () => permission) });
  Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
  return { register, subscribe };
}

describe('push toggle on /settings (ADR 22)', () => {
  beforeEach(() => startSession(makeSession(3)));
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    vi.unstubAllGlobals();
  });

  it('says when the browser has no push, and keeps the toggle off', async () => {
    mockFetch(({ url }) => (url.endsWith('/status') ? jsonResponse(status(false, false)) : jsonResponse([])));
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText(/Este navegador não oferece notificações push/)).toBeTruthy();
    expect((screen.getByRole('switch', { name: /^Push/ }) as HTMLInputElement).disabled).toBe(true);
  });

  it('asks the permission, subscribes with the server key, stores the subscription, then turns push on', async () => {
    const browser = stubPushBrowser('granted');
    let subscribed = false;
    let enabled = false;
    const { requests } = mockFetch(({ url, method }) => {
      if (url.endsWith('/status')) return jsonResponse(status(enabled, subscribed));
      if (url.endsWith('/api/push/vapid-public-key')) return jsonResponse({ public_key: KEY });
      if (url.endsWith('/api/me/push-subscriptions') && method === 'POST') {
        subscribed = true;
        return jsonResponse({ _id: 'x', endpoint: ENDPOINT, created_at: new Date().toISOString() });
      }
      if (url.endsWith('/api/me/push-subscriptions')) return jsonResponse(subscribed ? [{ _id: 'x', endpoint: ENDPOINT, created_at: new Date().toISOString() }] : []);
      if (url.endsWith('/notification-channel') && method === 'POST') {
        enabled = true;
        return jsonResponse(['push']);
      }
      return errorResponse(404, 'x');
    });
    renderWithProviders(<SettingsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Ativar neste navegador' }));
    await waitFor(() => expect((screen.getByRole('switch', { name: /^Push/ }) as HTMLInputElement).checked).toBe(true));
    expect(browser.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(browser.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    const writes = requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.url, r.body]);
    expect(writes).toEqual([
      ['POST', '/api/me/push-subscriptions', SUBSCRIPTION],
      ['POST', '/api/me/config/notification-channel', { channel: 'push' }],
    ]);
  });

  it('a refused permission is said, and nothing is stored', async () => {
    const browser = stubPushBrowser('denied');
    const { requests } = mockFetch(({ url }) => {
      if (url.endsWith('/status')) return jsonResponse(status(false, false));
      if (url.endsWith('/api/push/vapid-public-key')) return jsonResponse({ public_key: KEY });
      return jsonResponse([]);
    });
    renderWithProviders(<SettingsPage />);
    await userEvent.click(await screen.findByRole('switch', { name: /^Push/ }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/As notificações estão bloqueadas para este site/);
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect((screen.getByRole('switch', { name: /^Push/ }) as HTMLInputElement).checked).toBe(false);
  });

  it("the browser's English push error is said in pt-BR (a push service out of reach, or an unknown failure)", async () => {
    for (const [failure, expected] of [
      [new DOMException('Registration failed - push service error', 'AbortError'), 'O serviço de notificações do navegador não respondeu.'],
      [new Error('Something unexpected'), 'Não foi possível ativar as notificações push neste navegador.'],
    ] as const) {
      const browser = stubPushBrowser('granted');
      browser.subscribe.mockRejectedValueOnce(failure);
      const { requests } = mockFetch(({ url }) => {
        if (url.endsWith('/status')) return jsonResponse(status(false, false));
        if (url.endsWith('/api/push/vapid-public-key')) return jsonResponse({ public_key: KEY });
        return jsonResponse([]);
      });
      const view = renderWithProviders(<SettingsPage />);
      await userEvent.click(await screen.findByRole('switch', { name: /^Push/ }));
      const alert = (await screen.findByRole('alert')).textContent ?? '';
      expect(alert).toContain(expected);
      expect(alert).not.toMatch(/Registration failed|push service error|Something unexpected/);
      expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
      view.unmount();
    }
  });
});
