import type { Gateway, GatewayConnection } from '@sentinela/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, screenRequests } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const LONG_NAME = 'Gateway da câmara fria número dois da doca norte do centro de distribuição de Contagem';

const gateway = (overrides: Partial<Gateway> = {}): Gateway => ({
  _id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Doca Norte',
  key_prefix: 'sgw_AbCdEf',
  enterprise: { _id: 'ent-1', name: 'Frigorífico Boa Vista' },
  created_at: '2026-11-20T12:00:00.000Z',
  revoked_at: null,
  last_seen_at: null,
  rejected_today: 0,
  ...overrides,
});

const CONNECTION: GatewayConnection = {
  http: { url: 'https://monitor.example.com.br/api/ingest/readings' },
  mqtt: { host: 'monitor.example.com.br', port: 1883, tls_port: null, topic: 'devices/{mac}/readings' },
  ruuvi: { http_url: 'https://monitor.example.com.br/api/ingest/ruuvi', mqtt_topic: 'ruuvi/{gateway_mac}/{mac}' },
};

function serve() {
  return mockFetch((request) => {
    if (request.url === '/api/gateways') return jsonResponse([gateway(), gateway({ _id: '00000000-0000-4000-8000-0000000000a2', name: LONG_NAME, key_prefix: 'sgw_ZyXwVu' })]);
    if (request.url === '/api/gateways/connection') return jsonResponse(CONNECTION);
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  });
}

describe('/gateways (X2)', () => {
  it('cuts a long name on one line with the whole name in a tooltip, and keeps the actions in their cell', async () => {
    startSession(makeSession(2));
    serve();
    renderApp('/gateways');
    const long = await screen.findByText(LONG_NAME);
    expect(long.getAttribute('data-testid')).toBe('gateway-name');
    // Mantine's truncate: one line with an ellipsis, bounded width; focusable so the tooltip opens without a mouse.
    expect(long.getAttribute('data-truncate')).toBe('end');
    expect(long.getAttribute('tabindex')).toBe('0');
    await userEvent.hover(long);
    expect((await screen.findByRole('tooltip')).textContent).toBe(LONG_NAME);
    // A short name has neither.
    expect(screen.getByText('Doca Norte').getAttribute('tabindex')).toBeNull();
    const row = long.closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Renomear' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Revogar' })).toBeTruthy();
  });

  it('"Como conectar um gateway" shows the HTTP, MQTT and Ruuvi Gateway instructions with this server\'s addresses', async () => {
    startSession(makeSession(2));
    const { requests } = serve();
    renderApp('/gateways');
    await screen.findByText('Doca Norte');
    // Nothing asked before it is opened.
    expect(screenRequests(requests).map((r) => r.url)).toEqual(['/api/gateways']);
    await userEvent.click(screen.getByRole('button', { name: 'Como conectar um gateway' }));
    const panel = await screen.findByTestId('how-to-connect');
    expect(await within(panel).findByText(/curl -X POST 'https:\/\/monitor\.example\.com\.br\/api\/ingest\/readings'/)).toBeTruthy();
    expect(within(panel).getByText(/Troque <chave do gateway> pela chave/)).toBeTruthy();

    await userEvent.click(within(panel).getByRole('tab', { name: 'Ruuvi Gateway' }));
    expect(within(panel).getByText('https://monitor.example.com.br/api/ingest/ruuvi')).toBeTruthy();
    const text = panel.textContent ?? '';
    expect(text).toContain('Use custom HTTP(S) server');
    expect(text).toContain('Bearer');
    expect(text).toContain('ruuvi/{mac do gateway}/');
    expect(text).toContain('ruuvi/{mac do gateway}/{mac da tag}');
    expect(text).toContain("Authorization: Bearer <chave do gateway>");
  });

  it('without MQTT, the Ruuvi Gateway tab says to use HTTP', async () => {
    startSession(makeSession(2));
    mockFetch((request) => {
      if (request.url === '/api/gateways') return jsonResponse([]);
      if (request.url === '/api/gateways/connection') return jsonResponse({ ...CONNECTION, mqtt: null, ruuvi: { ...CONNECTION.ruuvi, mqtt_topic: null } });
      return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
    });
    renderApp('/gateways');
    await userEvent.click(await screen.findByRole('button', { name: 'Como conectar um gateway' }));
    const panel = await screen.findByTestId('how-to-connect');
    await userEvent.click(await within(panel).findByRole('tab', { name: 'Ruuvi Gateway' }));
    expect(panel.textContent).toContain('este servidor não recebe leituras por MQTT com chaves de gateway; use o HTTP.');
  });
});
