import type { Firmware } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { captureDownloads, fileResponse } from '../../../test/download';
import { jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { asPhone } from '../../../test/phone';
import { renderApp } from '../../../test/render';

const SHA_101 = 'ab'.repeat(32);
const SHA_100 = 'cd'.repeat(32);
const v101: Firmware = {
  _id: 'fw-2',
  version: '1.0.1',
  notes: '',
  created_at: '2024-03-05T13:00:00.000Z',
  file_name: 'sentinela-gw-1.0.1.bin',
  file_size: 7000,
  sha256: SHA_101,
};
const v100: Firmware = { ...v101, _id: 'fw-1', version: '1.0.0', created_at: '2024-03-01T12:30:00.000Z', file_name: 'sentinela-gw-1.0.0.bin', sha256: SHA_100 };

function open(handler: Handler) {
  startSession(makeSession(1));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp('/firmware') };
}

const server =
  (bytes = new Uint8Array(0)): Handler =>
  ({ url }) =>
    url === `/api/firmwares/${v100._id}/download` ? fileResponse(bytes, v100.file_name, 'application/octet-stream') : jsonResponse([v101, v100]);

describe('/firmware "Firmwares" (M1)', () => {
  it('lists the versions, newest first, with their date, SHA-256 and actions', async () => {
    open(server());
    expect(await screen.findByTestId('current-version')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('current-version').textContent).toBe('1.0.1'));
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Versão', 'Data da Atualização', 'SHA-256', 'Ações']);
    const [first, second] = within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row') as [HTMLElement, HTMLElement];
    expect(within(first).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      '1.0.1',
      '05/03/2024 10:00:00',
      `${SHA_101.slice(0, 12)}…`,
      'Baixar ArquivoVer Notas',
    ]);
    expect(within(second).getAllByRole('cell')[0]?.textContent).toBe('1.0.0');
  });

  it("on a phone, shows each version as a card with its row's contents and actions: Baixar Arquivo saves the file, Ver Notas opens the notes", async () => {
    asPhone();
    const saved = captureDownloads();
    const bytes = new Uint8Array(5000).fill(7);
    open(server(bytes));
    await screen.findByText(`${SHA_100.slice(0, 12)}…`);
    // No table scrolled sideways: one card per version.
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('firmware-card');
    expect(cards.map((c) => within(c).getByText(/^1\.0\.\d$/).textContent)).toEqual(['1.0.1', '1.0.0']);
    const card = cards[1]!;
    expect(card.textContent).toContain('Versão: 1.0.0');
    expect(card.textContent).toContain('Data da Atualização: 01/03/2024 09:30:00');
    expect(card.textContent).toContain(`SHA-256:${SHA_100.slice(0, 12)}…`);
    expect(within(card).getByRole('button', { name: 'Copiar SHA-256' })).toBeTruthy();
    expect([...card.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['', 'Baixar Arquivo', 'Ver Notas']);

    await userEvent.click(within(card).getByRole('button', { name: 'Baixar Arquivo' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('sentinela-gw-1.0.0.bin');
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(bytes);

    await userEvent.click(within(card).getByRole('button', { name: 'Ver Notas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notas da versão' });
    expect((within(dialog).getByRole('textbox', { name: 'Versão' }) as HTMLInputElement).value).toBe('1.0.0');
    expect(within(dialog).getByText(SHA_100)).toBeTruthy();
  });
});
