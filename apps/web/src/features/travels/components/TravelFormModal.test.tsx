import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeDevice, makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { makeTravel, makeTravelDevice } from '../test-fixtures';

vi.mock('./TravelMap', () => ({ default: () => <div data-testid="travel-map" /> }));
// The form's map: a button stands for a click on the map at a known place.
vi.mock('./PickPlacesMap', () => ({
  default: ({ onPick }: { onPick: (position: [number, number]) => void }) => (
    <button type="button" onClick={() => onPick([-22.9068, -43.1729])}>
      clique no mapa
    </button>
  ),
}));
vi.mock('../live/use-travel-live', () => ({ useTravelLive: () => null }));

const DEVICES = [makeDevice(1, { name: 'Baú Caminhão 02' }), makeDevice(2, { name: 'Câmara Fria' })];
const SELF_ID = '7d3b6c1e-0000-4000-8000-000000000001';

function handler(create: Handler = () => jsonResponse(makeTravel({ code: 'AURX4Q7T2M' }), 201), users?: Handler): Handler {
  return (request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/travels' && request.method === 'POST') return create(request);
    if (pathname === '/api/travels') return jsonResponse({ data: { data: [], total: 0, page: 1, limit: 0 } });
    if (pathname.startsWith('/api/users-by-client/')) return (users ?? (() => errorResponse(403, 'Você não tem permissão para acessar este recurso.', 'FORBIDDEN')))(request);
    if (pathname.startsWith('/api/devices-by-user/') || pathname === '/api/beacon-device/all') return jsonResponse(DEVICES);
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  };
}

async function openForm() {
  await userEvent.click(await screen.findByRole('button', { name: 'Nova viagem' }));
  return within(await screen.findByRole('dialog'));
}

describe('Nova viagem (T8)', () => {
  it('checks the form with pt-BR messages before sending', async () => {
    startSession(makeSession(3));
    const { requests } = mockFetch(handler());
    renderApp('/directions');
    const form = await openForm();
    await userEvent.click(form.getByRole('button', { name: 'Cadastrar viagem' }));
    expect(await form.findAllByText('Informe o endereço.')).toHaveLength(2);
    expect(form.getAllByText('Informe a latitude.')).toHaveLength(2);
    expect(form.getAllByText('Informe a longitude.')).toHaveLength(2);
    expect(form.getByText('Escolha ao menos um dispositivo.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('an ordinary user (who may not list users) is the responsible; a map click sets the destination', async () => {
    startSession(makeSession(3));
    const { requests } = mockFetch(handler());
    renderApp('/directions');
    const form = await openForm();

    await userEvent.type(form.getByLabelText(/Endereço de origem/), 'Av. Paulista, 1000 - São Paulo - SP');
    await userEvent.type(form.getByLabelText(/Endereço de destino/), 'Av. Atlântica, 200 - Rio de Janeiro - RJ');
    const [originLat] = form.getAllByLabelText(/Latitude/);
    const [originLng] = form.getAllByLabelText(/Longitude/);
    await userEvent.type(originLat!, '-23,5653');
    await userEvent.type(originLng!, '-46,6515');
    await userEvent.click(form.getByRole('radio', { name: 'Destino' }));
    await userEvent.click(form.getByRole('button', { name: 'clique no mapa' }));
    await waitFor(() => expect((form.getAllByLabelText(/Latitude/)[1] as HTMLInputElement).value).toBe('-22,9068'));

    // 403 on the users of the enterprise: the user alone, already chosen.
    await waitFor(() => expect((form.getByLabelText(/Responsável/) as HTMLInputElement).value).toBe('Maria Souza'));
    await userEvent.click(form.getByLabelText(/Dispositivos/));
    await userEvent.click(await screen.findByRole('option', { name: /Baú Caminhão 02/ }));
    await userEvent.click(form.getByRole('button', { name: 'Cadastrar viagem' }));

    expect(await screen.findByText(/Viagem cadastrada com sucesso! Código do localizador: AURX4Q7T2M/)).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      origin: { address: 'Av. Paulista, 1000 - São Paulo - SP', location: [-23.5653, -46.6515] },
      destiny: { address: 'Av. Atlântica, 200 - Rio de Janeiro - RJ', location: [-22.9068, -43.1729] },
      responsible_user_id: SELF_ID,
      devices: [{ device_id: DEVICES[0]!._id }],
    });
  });

  it('shows the server refusal and keeps the form open', async () => {
    startSession(makeSession(2));
    mockFetch(
      handler(
        () =>
          jsonResponse(
            {
              statusCode: 409,
              code: 'CONFLICT',
              error: 'O dispositivo "Baú Caminhão 02" está em outra viagem em andamento. Pause ou finalize aquela viagem antes de incluí-lo nesta, que já está em andamento.',
            },
            409,
          ),
        () => jsonResponse([]),
      ),
    );
    renderApp('/directions');
    const form = await openForm();
    await userEvent.type(form.getByLabelText(/Endereço de origem/), 'Origem qualquer');
    await userEvent.type(form.getByLabelText(/Endereço de destino/), 'Destino qualquer');
    for (const [index, value] of ['-23', '-22'].entries()) await userEvent.type(form.getAllByLabelText(/Latitude/)[index]!, value);
    for (const [index, value] of ['-46', '-43'].entries()) await userEvent.type(form.getAllByLabelText(/Longitude/)[index]!, value);
    await userEvent.click(form.getByLabelText(/Dispositivos/));
    await userEvent.click(await screen.findByRole('option', { name: /Baú Caminhão 02/ }));
    await userEvent.click(form.getByRole('button', { name: 'Cadastrar viagem' }));
    expect(await screen.findByText('O dispositivo "Baú Caminhão 02" está em outra viagem em andamento. Pause ou finalize aquela viagem antes de incluí-lo nesta, que já está em andamento.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('Editar viagem (T8)', () => {
  const editable = makeTravel({
    status: 0,
    status_name: 'Não iniciada',
    user: { _id: SELF_ID, name: 'Maria Souza' },
    devices: [makeTravelDevice({ _id: DEVICES[0]!._id, name: 'Baú Caminhão 02', mac: DEVICES[0]!.mac })],
  });
  const finished = makeTravel({ _id: '9b0c6a52-0000-4000-8000-0000000000f2', code: 'AUR9P5D2LC', status: 2, status_name: 'Finalizada' });

  function editHandler(update: Handler): Handler {
    return (request) => {
      const { pathname } = new URL(request.url, 'http://localhost');
      if (pathname === `/api/travels/${editable._id}` && request.method === 'PUT') return update(request);
      if (pathname === '/api/travels') return jsonResponse({ data: { data: [editable, finished], total: 2, page: 1, limit: 0 } });
      return handler()(request);
    };
  }

  it('starts from the travel, sends its changes with PUT and keeps its devices', async () => {
    startSession(makeSession(3));
    const { requests } = mockFetch(editHandler(() => jsonResponse(editable)));
    renderApp('/directions');
    // Only the travel not finished can be edited.
    const editButtons = await screen.findAllByRole('button', { name: 'Editar' });
    expect(editButtons).toHaveLength(1);
    await userEvent.click(editButtons[0]!);
    const form = within(await screen.findByRole('dialog', { name: 'Editar viagem' }));

    const destiny = form.getByLabelText(/Endereço de destino/) as HTMLInputElement;
    expect(destiny.value).toBe(editable.destiny.address);
    expect((form.getAllByLabelText(/Latitude/)[0] as HTMLInputElement).value).toBe('-23,5653');
    await userEvent.clear(destiny);
    await userEvent.type(destiny, 'Porto de Santos - SP');
    await userEvent.click(form.getByRole('button', { name: 'Salvar alterações' }));

    expect(await screen.findByText('Viagem alterada com sucesso!')).toBeTruthy();
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toContain(`/api/travels/${editable._id}`);
    expect(put.body).toEqual({
      origin: editable.origin,
      destiny: { address: 'Porto de Santos - SP', location: editable.destiny.location },
      responsible_user_id: SELF_ID,
      devices: [{ device_id: DEVICES[0]!._id }],
    });
  });

  it('shows why the server refused the change', async () => {
    startSession(makeSession(3));
    mockFetch(editHandler(() => errorResponse(409, 'Esta viagem já foi finalizada.', 'CONFLICT')));
    renderApp('/directions');
    await userEvent.click(await screen.findByRole('button', { name: 'Editar' }));
    const form = within(await screen.findByRole('dialog', { name: 'Editar viagem' }));
    await userEvent.click(form.getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText('Esta viagem já foi finalizada.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Editar viagem' })).toBeTruthy();
  });
});
