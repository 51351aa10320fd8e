import { MAPPING_STUDY_MESSAGES, type Location, type MappingStudy } from '@sentinela/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, type RecordedRequest } from '../../../test/fetch';
import { makeDevice, makeSession } from '../../../test/fixtures';
import { makeReport } from '../../../test/report-fixtures';
import { captureDownloads, fileResponse } from '../../../test/download';
import { asPhone } from '../../../test/phone';
import { renderApp } from '../../../test/render';

// Leaflet and the socket are covered in Chromium; here the map is a stub and live is off.
vi.mock('./LocationsMap', () => ({ LocationsMap: () => <div data-testid="locations-map" /> }));
vi.mock('../live/use-locations-live', () => ({ useLocationsLive: () => 'live' }));

const ENTERPRISE = { _id: 'e1', name: 'Aurora Alimentos' };
const CAMARA: Location = {
  _id: '7b0c6a52-0000-4000-8000-000000000001', id: '7b0c6a52-0000-4000-8000-000000000001', name: 'Câmara Fria 2', address: null,
  latitude: -23.5, longitude: -46.6, devices: 3, enterprise: ENTERPRISE, created_at: '2026-11-25T10:00:00.000Z',
};
const DEVICES = [1, 2, 3].map((i) => makeDevice(i, { enterprise: { _id: ENTERPRISE._id, name: ENTERPRISE.name } as never }));

function study(status: 1 | 2): MappingStudy {
  return {
    _id: 's1', name: 'Qualificação de verão', location: { _id: CAMARA._id, name: CAMARA.name },
    sensors: DEVICES.slice(0, 2).map((d) => ({ mac: d.mac, name: d.name })),
    from: '2026-11-01T03:00:00.000Z', to: '2026-11-02T03:00:00.000Z', min: 2, max: 8, created_at: '2026-11-27T10:00:00.000Z', user: { name: 'Ana' },
    report: makeReport(1, status, { kind: 'mapping-study', device: null, mac: null, file_name: 'Mapeamento-Qualificacao-de-verao_2026-11-01_2026-11-02.pdf' }),
  };
}

const STUDY_PDF = new Uint8Array(1500).fill(3);

function open(studies: () => MappingStudy[], post: (request: RecordedRequest) => Response = () => errorResponse(500, 'x'), profileId: 2 | 3 = 2) {
  startSession(makeSession(profileId));
  const handler: Handler = (request) => {
    const path = new URL(request.url, 'http://x').pathname;
    if (path === '/api/locations') return jsonResponse([CAMARA]);
    if (path === '/api/locations/devices') return jsonResponse([]);
    if (path === '/api/beacon-device/all') return jsonResponse(DEVICES);
    if (path === '/api/mapping-studies') return request.method === 'POST' ? post(request) : jsonResponse(studies());
    if (path.startsWith('/api/report/files/')) return fileResponse(STUDY_PDF, 'Mapeamento-Qualificacao-de-verao_2026-11-01_2026-11-02.pdf');
    return errorResponse(404, 'Rota não encontrada.');
  };
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp('/locations') };
}

describe('X12 Locais: "Estudos de mapeamento térmico" (ADR 0083)', () => {
  it('shows the empty state, checks the form in pt-BR, then starts a study and lists it with its report', async () => {
    let list: MappingStudy[] = [];
    const { requests } = open(() => list, (request) => {
      list = [study(1)];
      return jsonResponse({ ...study(1), name: (request.body as { name: string }).name }, 201);
    });
    const section = within(await screen.findByTestId('mapping-studies', {}, { timeout: 10_000 }));
    expect(await section.findByText(/Nenhum estudo de mapeamento térmico/)).toBeTruthy();

    await userEvent.click(section.getByRole('button', { name: 'Novo estudo' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText(/Nome do estudo/), { target: { value: 'Qualificação de verão' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Iniciar estudo' }));
    expect(await dialog.findByText('Informe o início e o fim do estudo.')).toBeTruthy();

    fireEvent.change(dialog.getByLabelText(/Início/), { target: { value: '2026-11-01T00:00' } });
    fireEvent.change(dialog.getByLabelText(/Fim/), { target: { value: '2026-11-02T00:00' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Iniciar estudo' }));
    expect(await dialog.findByText(MAPPING_STUDY_MESSAGES.tooFewSensors)).toBeTruthy();

    await userEvent.click(dialog.getByLabelText(/Local/));
    await userEvent.click(await screen.findByRole('option', { name: 'Câmara Fria 2' }));
    await userEvent.click(dialog.getByLabelText(/Sensores/));
    await userEvent.click(await screen.findByRole('option', { name: /Sensor 01/ }));
    await userEvent.click(await screen.findByRole('option', { name: /Sensor 02/ }));
    const min = dialog.getByLabelText(/Temperatura mínima/);
    fireEvent.change(min, { target: { value: '9' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Iniciar estudo' }));
    expect(await dialog.findByText(MAPPING_STUDY_MESSAGES.limitsOrder)).toBeTruthy();
    fireEvent.change(dialog.getByLabelText(/Fim/), { target: { value: '2026-12-15T00:00' } });
    fireEvent.change(min, { target: { value: '2,5' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Iniciar estudo' }));
    expect(await dialog.findByText(MAPPING_STUDY_MESSAGES.periodTooLong)).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.change(dialog.getByLabelText(/Fim/), { target: { value: '2026-11-02T00:00' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Iniciar estudo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Qualificação de verão',
      location_id: CAMARA._id,
      macs: [DEVICES[0]!.mac, DEVICES[1]!.mac],
      from: new Date('2026-11-01T00:00').toISOString(),
      to: new Date('2026-11-02T00:00').toISOString(),
      min: 2.5,
      max: 8,
    });
    const row = (await section.findByText('Qualificação de verão')).closest('tr')!;
    expect(within(row).getByText('Câmara Fria 2')).toBeTruthy();
    expect(within(row).getByTestId('report-status').textContent).toBe('Em processamento');
    expect((within(row).getByRole('button', { name: /Baixar PDF/ }) as HTMLButtonElement).disabled).toBe(true);
  }, 90_000);

  it('a generated study offers its PDF', async () => {
    open(() => [study(2)]);
    const section = within(await screen.findByTestId('mapping-studies', {}, { timeout: 10_000 }));
    const row = (await section.findByText('Qualificação de verão')).closest('tr')!;
    expect((within(row).getByRole('button', { name: /Baixar PDF/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('on a phone, shows each study as a card with its row\'s contents, and its Baixar PDF saves the report', async () => {
    asPhone();
    const saved = captureDownloads();
    open(() => [study(2), { ...study(1), _id: 's2', name: 'Qualificação de inverno' }]);
    const section = within(await screen.findByTestId('mapping-studies', {}, { timeout: 10_000 }));
    await section.findByText('Qualificação de verão');
    expect(section.queryByRole('table')).toBeNull();
    const [generated, queued] = section.getAllByTestId('study-card');
    expect(within(generated!).getByTestId('report-status').textContent).toBe('Gerado');
    expect(generated!.textContent).toContain('Local: Câmara Fria 2');
    expect(generated!.textContent).toContain('Período: 01/11/2026 00:00 a 02/11/2026 00:00');
    expect(generated!.textContent).toContain('Sensores: 2');
    expect(generated!.textContent).toContain('Faixa: 2,00 a 8,00 °C');
    expect(within(queued!).getByTestId('report-status').textContent).toBe('Em processamento');
    expect((within(queued!).getByRole('button', { name: /Baixar PDF/ }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(within(generated!).getByRole('button', { name: /Baixar PDF/ }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('Mapeamento-Qualificacao-de-verao_2026-11-01_2026-11-02.pdf');
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(STUDY_PDF);
  });

  it('is not offered to an ordinary user', async () => {
    const { requests } = open(() => [study(2)], undefined, 3);
    await screen.findByText('Câmara Fria 2', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('mapping-studies')).toBeNull();
    expect(requests.some((r) => r.url.includes('/api/mapping-studies'))).toBe(false);
  });
});
