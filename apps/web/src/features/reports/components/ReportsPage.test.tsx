import { REPORT_MESSAGES, type ProfileId } from '@sentinela/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { captureDownloads, fileResponse } from '../../../test/download';
import { asPhone } from '../../../test/phone';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { mockXhr } from '../../../test/xhr';
import { makeReport } from '../../../test/report-fixtures';

const GENERATED = makeReport(1, 2);
const QUEUED = makeReport(2, 1, { created_at: new Date().toISOString() });
const FAILED = makeReport(3, 3);
const EXCEL = makeReport(4, 2, { type: 'xlsx', filters: { dateInit: null, dateEnd: null } });

function openReports(handler: Handler, profileId: ProfileId = 3) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  const view = renderApp('/reports');
  const listCalls = () => mock.requests.filter((r) => r.url.startsWith('/api/reports'));
  return { ...mock, ...view, listCalls };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((td) => td.textContent);

describe('/reports (R3)', () => {
  it('lists the reports with status, period, generation time, type and the download action', async () => {
    openReports(() => jsonResponse([GENERATED, QUEUED, FAILED, EXCEL]));
    expect(await screen.findByRole('heading', { name: 'Relatórios' })).toBeTruthy();
    await screen.findByText('Sensor 01');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      '',
      'Nome',
      'Mac',
      'Status',
      'Período',
      'Gerado em',
      'Tipo',
      'Ações',
    ]);
    const [generated, queued, failed, excel] = bodyRows() as HTMLElement[];
    expect(cells(generated!).slice(1)).toEqual([
      'Sensor 01Histórico do dispositivo',
      'AA:BB:CC:DD:EE:01',
      'Gerado',
      '01/03/2024 09:00 – 03/03/2024 09:30',
      '03/03/2024 12:00:05',
      'PDF',
      'Baixar relatórioAprovar',
    ]);
    expect(cells(queued!).slice(3, 6)).toEqual(['Em processamento', '01/03/2024 09:00 – 03/03/2024 09:30', '--']);
    expect(cells(excel!).slice(4, 7)).toEqual(['--', '03/03/2024 12:00:05', 'XLSX']);

    // Only a generated report downloads; the others have a disabled button.
    expect(within(generated!).getByRole('button', { name: 'Baixar relatório' }).hasAttribute('disabled')).toBe(false);
    expect(within(queued!).getByRole('button', { name: 'Baixar relatório' }).hasAttribute('disabled')).toBe(true);

    // A failed report explains itself in a tooltip.
    expect(screen.queryByText('Nenhuma leitura no período.')).toBeNull();
    await userEvent.hover(within(failed!).getByText('Falhou'));
    expect(await screen.findByText('Nenhuma leitura no período.')).toBeTruthy();
  });

  it('on a phone, shows each report as a card with its row\'s contents, box and actions: Baixar relatório saves the file, Aprovar opens the signature', async () => {
    asPhone();
    const saved = captureDownloads();
    const pdf = new Uint8Array(1800).fill(5);
    openReports(({ url }) => (url === GENERATED.download_url ? fileResponse(pdf, 'Sensor-01_2024-03-01_2024-03-03.pdf') : jsonResponse([GENERATED, QUEUED, FAILED])));
    await screen.findByText('Sensor 01');
    // No table scrolled sideways: one card per report.
    expect(screen.queryByRole('table')).toBeNull();
    const [generated, queued, failed] = screen.getAllByTestId('report-card');
    expect(screen.getAllByTestId('report-card')).toHaveLength(3);
    const card = within(generated!);
    expect(card.getByText('Sensor 01')).toBeTruthy();
    expect(card.getByText('Histórico do dispositivo')).toBeTruthy();
    expect(card.getByTestId('report-status').textContent).toBe('Gerado');
    expect(generated!.textContent).toContain('Mac: AA:BB:CC:DD:EE:01');
    expect(generated!.textContent).toContain('Período: 01/03/2024 09:00 – 03/03/2024 09:30');
    expect(generated!.textContent).toContain('Gerado em: 03/03/2024 12:00:05');
    expect(generated!.textContent).toContain('Tipo: PDF');
    expect(within(queued!).getByTestId('report-status').textContent).toBe('Em processamento');
    expect(queued!.textContent).toContain('Gerado em: --');
    expect(within(failed!).getByTestId('report-status').textContent).toBe('Falhou');

    // The row's actions: only a generated report downloads or is approved.
    expect(within(queued!).getByRole('button', { name: 'Baixar relatório' }).hasAttribute('disabled')).toBe(true);
    expect(within(queued!).queryByRole('button', { name: 'Aprovar' })).toBeNull();
    await userEvent.click(card.getByRole('button', { name: 'Baixar relatório' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('Sensor-01_2024-03-01_2024-03-03.pdf');
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(pdf);

    await userEvent.click(card.getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByRole('dialog', { name: 'Aprovar relatório' })).toBeTruthy();
  });

  it('on a phone, a card\'s box and "Selecionar todos da página" choose reports for Baixar selecionados (R4)', async () => {
    asPhone();
    const second = makeReport(5, 2, { type: 'xlsx' });
    openReports(() => jsonResponse([GENERATED, FAILED, second]));
    await screen.findByText('Sensor 01');
    const [generated, failed] = screen.getAllByTestId('report-card');
    expect((within(failed!).getByRole('checkbox', { name: 'Selecionar Sensor 03 (PDF)' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Baixar selecionados/ })).toBeNull();

    expect(generated!.style.background).toBe('');
    await userEvent.click(within(generated!).getByRole('checkbox', { name: 'Selecionar Sensor 01 (PDF)' }));
    expect(within(screen.getByRole('button', { name: /Baixar selecionados/ })).getByText('1')).toBeTruthy();
    // The chosen card is tinted as a chosen row is.
    expect(screen.getAllByTestId('report-card')[0]!.style.background).toContain('teal-0');
    const page = screen.getByRole('checkbox', { name: 'Selecionar todos da página' }) as HTMLInputElement;
    expect(page.indeterminate).toBe(true);
    await userEvent.click(page);
    expect(within(screen.getByRole('button', { name: /Baixar selecionados/ })).getByText('2')).toBeTruthy();
    await userEvent.click(page);
    expect(screen.queryByRole('button', { name: /Baixar selecionados/ })).toBeNull();
  });

  it('pages by 10, says "Nada encontrado." when empty, and "Não foi possível carregar relatórios" on failure', async () => {
    const many = Array.from({ length: 12 }, (_, i) => makeReport(i + 1));
    const view = openReports(() => jsonResponse(many));
    await screen.findByText('Sensor 01');
    expect(bodyRows()).toHaveLength(10);
    expect(screen.queryByRole('combobox')).toBeNull();
    view.unmount();

    const empty = openReports(() => jsonResponse([]));
    expect(await screen.findByText('Nada encontrado.')).toBeTruthy();
    empty.unmount();

    openReports(() => errorResponse(500, 'x'));
    // A 5xx is retried once before the screen gives up.
    expect(await screen.findByText(REPORT_MESSAGES.loadFailed, {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('Erro!')).toBeTruthy();
  });

  it('Aplicar filtro(s) sends the period as instants, an empty side as nothing; Atualizar asks again', async () => {
    const { listCalls } = openReports(() => jsonResponse([GENERATED]));
    await screen.findByText('Sensor 01');
    expect(listCalls().map((r) => r.url)).toEqual(['/api/reports']);

    fireEvent.change(screen.getByLabelText('Data/Hora Início'), { target: { value: '2024-03-01T09:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Aplicar filtro(s)' }));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    expect(listCalls()[1]?.url).toBe('/api/reports?dateInit=2024-03-01T12%3A00%3A00.000Z');

    await userEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(listCalls()).toHaveLength(3));
  });

  it('shows Baixar selecionados only with a selection, and zips the selected files in one download (R4)', async () => {
    const saved = captureDownloads();
    const second = makeReport(5, 2, { type: 'xlsx' });
    const files: Record<string, Uint8Array> = {
      [GENERATED.download_url!]: new Uint8Array(2500).fill(7),
      [second.download_url!]: new Uint8Array(1200).fill(9),
    };
    const { requests } = openReports(({ url }) =>
      files[url] ? fileResponse(files[url], 'x.pdf') : jsonResponse([GENERATED, FAILED, second]),
    );
    await screen.findByText('Sensor 01');
    expect(screen.queryByRole('button', { name: /Baixar selecionados/ })).toBeNull();
    // A failed report has no file to select.
    expect((screen.getByRole('checkbox', { name: 'Selecionar Sensor 03 (PDF)' }) as HTMLInputElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Sensor 01 (PDF)' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Sensor 05 (XLSX)' }));
    const button = screen.getByRole('button', { name: /Baixar selecionados/ });
    expect(within(button).getByText('2')).toBeTruthy();

    await userEvent.click(button);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('relatorios-temperatura-umidade.zip');
    const entries = unzipSync(new Uint8Array(await saved[0]!.blob.arrayBuffer()));
    // Named by device, period and type (the server's file_name), not by bare ids.
    expect(Object.keys(entries)).toEqual(['Sensor-01_2024-03-01_2024-03-03.pdf', 'Sensor-05_2024-03-01_2024-03-03.xlsx']);
    expect(entries['Sensor-01_2024-03-01_2024-03-03.pdf']).toEqual(files[GENERATED.download_url!]);
    expect(entries['Sensor-05_2024-03-01_2024-03-03.xlsx']).toEqual(files[second.download_url!]);
    expect(requests.filter((r) => r.url.startsWith('/api/report/files/')).every((r) => r.headers.authorization === 'Bearer token-123')).toBe(
      true,
    );
    expect(await screen.findByText('100%')).toBeTruthy();

    // The header box clears the page.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar todos da página' }));
    expect(screen.queryByRole('button', { name: /Baixar selecionados/ })).toBeNull();
  });

  it('Gerar relatórios uploads the Excel file and shows what was read and the errors; closing refreshes the list (R5)', async () => {
    const { uploads } = mockXhr(() => ({
      status: 200,
      body: { reportsToProccess: 2, errors: ['Linha 3: MAC AA:00 não encontrado.'] },
    }));
    const { listCalls } = openReports(() => jsonResponse([GENERATED]));
    await screen.findByText('Sensor 01');
    await userEvent.click(screen.getByRole('button', { name: 'Gerar relatórios' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar arquivo excel' });
    expect(within(dialog).getByText('Enviar modelo excel')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Baixar modelo excel' })).toBeTruthy();

    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    const xlsx = new File([new Uint8Array(300)], 'relatorios.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await userEvent.upload(input, xlsx);

    expect(await within(dialog).findByText(REPORT_MESSAGES.excelRead(2))).toBeTruthy();
    expect(within(dialog).getByText(REPORT_MESSAGES.excelErrors(1))).toBeTruthy();
    expect(within(dialog).getByText('Linha 3: MAC AA:00 não encontrado.')).toBeTruthy();
    expect(uploads[0]).toMatchObject({ method: 'POST', url: '/api/reports/generate-reports-by-excel' });
    expect(uploads[0]?.headers.authorization).toBe('Bearer token-123');
    expect(uploads[0]?.file?.name).toBe('relatorios.xlsx');

    const before = listCalls().length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before));
  });

  it('refuses a file that is not .xlsx without sending it', async () => {
    const { uploads } = mockXhr(() => ({ status: 500, body: {} }));
    openReports(() => jsonResponse([]));
    await userEvent.click(await screen.findByRole('button', { name: 'Gerar relatórios' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar arquivo excel' });
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['a;b'], 'dados.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText(REPORT_MESSAGES.notXlsx)).toBeTruthy();
    expect(uploads).toHaveLength(0);
  });

  it('client viewers read and download reports but do not generate them', async () => {
    openReports(() => jsonResponse([GENERATED]), 5);
    await screen.findByText('Sensor 01');
    expect(screen.queryByRole('button', { name: 'Gerar relatórios' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Atualizar' })).toBeTruthy();
  });

  it('X11 approves a generated report with an electronic signature: meaning and password, a wrong one said, then the signature shown', async () => {
    const signature = {
      _id: 's0000000-0000-4000-8000-000000000001',
      printed_name: 'João Silva',
      username: 'joao.silva',
      meaning: 'Aprovado' as const,
      signed_at: '2024-03-03T15:10:00.000Z',
      record_hash: 'a'.repeat(64),
      hash: 'b'.repeat(64),
    };
    let approved = false;
    let attempts = 0;
    const { requests } = openReports((request) => {
      if (request.url === `/api/reports/${GENERATED._id}/approve`) {
        attempts += 1;
        if (attempts === 1) return errorResponse(403, 'Senha incorreta. A assinatura não foi registrada.', 'FORBIDDEN');
        approved = true;
        return jsonResponse({ ...GENERATED, approval: signature });
      }
      return jsonResponse([approved ? { ...GENERATED, approval: signature } : GENERATED, QUEUED]);
    });
    await screen.findByText('Sensor 01');
    // A report still being generated has nothing to approve.
    const [, queued] = bodyRows() as HTMLElement[];
    expect(within(queued!).queryByRole('button', { name: 'Aprovar' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Aprovar relatório' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Aprovar e assinar' }));
    expect(await dialog.findByText('Escolha o significado da assinatura.')).toBeTruthy();
    await userEvent.click(dialog.getByRole('combobox', { name: /Significado da assinatura/ }));
    await userEvent.click(await dialog.findByRole('option', { name: 'Aprovado' }));
    await userEvent.type(dialog.getByLabelText(/Sua senha/), 'errada');
    await userEvent.click(dialog.getByRole('button', { name: 'Aprovar e assinar' }));
    expect(await dialog.findByText('Senha incorreta. A assinatura não foi registrada.')).toBeTruthy();
    await userEvent.clear(dialog.getByLabelText(/Sua senha/));
    await userEvent.type(dialog.getByLabelText(/Sua senha/), 'Senha@Certa2026');
    await userEvent.click(dialog.getByRole('button', { name: 'Aprovar e assinar' }));
    expect(await screen.findByText(/Assinado eletronicamente por/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Aprovar' })).toBeNull();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { password: 'errada', meaning: 'Aprovado' },
      { password: 'Senha@Certa2026', meaning: 'Aprovado' },
    ]);
  });
});
