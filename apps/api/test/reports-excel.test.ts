import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCEL_TEMPLATE_COLUMNS, REPORT_MESSAGES, type ExcelGenerationResult, type Report } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { foreignPdf, minuteOf, pdfPart, readXlsx, saoPauloExcelDate, saoPauloText, upload, waitForReport, XLSX_TYPE, xlsxPart, xlsxWith } from './report-helpers';
import { MACS } from './travel-helpers';

let ctx: TestContext;
let joao: string;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  joao = (await ctx.login('joao.silva')).token;
});
afterAll(() => ctx.close());

const hours = (n: number) => n * 3600_000;
const URL = '/api/reports/generate-reports-by-excel';

async function myReports(): Promise<Report[]> {
  return (await ctx.request('GET', '/api/reports', joao)).json() as Report[];
}

describe('GET /api/reports/excel-template', () => {
  it('is an .xlsx with the columns, a typed example row and the instructions', async () => {
    const res = await ctx.request('GET', '/api/reports/excel-template', joao);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    expect(res.headers['content-disposition']).toBe('attachment; filename=modelo-relatorios.xlsx');
    const workbook = await readXlsx(res.rawPayload);
    const sheet = workbook.getWorksheet('Relatórios')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...EXCEL_TEMPLATE_COLUMNS]);
    const example = sheet.getRow(2);
    // The example uses one of João's own devices, so the template uploads as it is.
    expect([MACS.truck1, MACS.truck2]).toContain(example.getCell(1).value);
    expect(example.getCell(2).value).toBeInstanceOf(Date);
    expect(example.getCell(3).value).toBeInstanceOf(Date);
    expect(example.getCell(2).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(example.getCell(4).value).toBe('PDF');
    const help = workbook.getWorksheet('Instruções')!;
    expect(String(help.getCell(1, 1).value)).toMatch(/Como gerar relatórios/);

    const uploaded = await upload(ctx, URL, [xlsxPart(res.rawPayload)], joao);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toEqual({ reportsToProccess: 1, errors: [] });
  });
});

describe('POST /api/reports/generate-reports-by-excel', () => {
  it('queues every good row and answers one message per bad row', async () => {
    const now = ctx.clock.now();
    const start = new Date(now.getTime() - hours(6));
    const end = new Date(now.getTime() - hours(1));
    const before = new Set((await myReports()).map((r) => r._id));
    const file = await xlsxWith([
      [MACS.truck1, saoPauloExcelDate(start), saoPauloExcelDate(end), 'PDF'], // 2: good, Excel dates
      ['C3:00:00:00:09:09', saoPauloExcelDate(start), saoPauloExcelDate(end), 'PDF'], // 3: unknown MAC
      [MACS.vaccines, saoPauloExcelDate(start), saoPauloExcelDate(end), 'PDF'], // 4: another enterprise's
      [MACS.truck2, saoPauloExcelDate(end), saoPauloExcelDate(start), 'EXCEL'], // 5: end before start
      [MACS.truck2, '31/02/2026 10:00', saoPauloText(end), 'PDF'], // 6: no such date
      [MACS.truck2, saoPauloText(start), saoPauloText(end), 'CSV'], // 7: bad type
      [null, null, null, null], // 8: blank, skipped
      [MACS.chamber, saoPauloText(start), saoPauloText(end), 'PDF'], // 9: Aurora's, but not linked to João
      [MACS.truck2.toLowerCase(), saoPauloText(start), saoPauloText(end), 'excel'], // 10: good, text dates
      [MACS.truck1, saoPauloText(start), '', 'PDF'], // 11: no end
      ['C3:00:00', saoPauloText(start), saoPauloText(end), 'PDF'], // 12: not a MAC
      [MACS.truck1, saoPauloExcelDate(new Date(end.getTime() - 400 * 24 * hours(1))), saoPauloExcelDate(end), 'PDF'], // 13: too long
    ]);
    const res = await upload(ctx, URL, [xlsxPart(file)], joao);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as ExcelGenerationResult;
    expect(result.reportsToProccess).toBe(2);
    expect(result.errors).toEqual([
      'Linha 3: MAC C3:00:00:00:09:09 não encontrado.',
      `Linha 4: MAC ${MACS.vaccines} não encontrado.`,
      'Linha 5: a data final deve ser posterior à data inicial.',
      'Linha 6: data inicial "31/02/2026 10:00" inválida (use DD/MM/AAAA HH:mm).',
      'Linha 7: tipo "CSV" inválido (use PDF ou EXCEL).',
      `Linha 9: MAC ${MACS.chamber} não encontrado.`,
      'Linha 11: informe a data final.',
      'Linha 12: MAC C3:00:00 inválido (use o formato AA:BB:CC:DD:EE:FF).',
      'Linha 13: o período deve ter no máximo 366 dias.',
    ]);

    const queued = (await myReports()).filter((r) => !before.has(r._id));
    expect(queued).toHaveLength(2);
    const byMac = new Map(queued.map((r) => [r.mac, r]));
    // Both rows read in São Paulo time, to the minute.
    expect(byMac.get(MACS.truck1)).toMatchObject({ kind: 'device-history', type: 'pdf', filters: { dateInit: minuteOf(start), dateEnd: minuteOf(end) } });
    expect(byMac.get(MACS.truck2)).toMatchObject({ kind: 'device-history', type: 'xlsx', filters: { dateInit: minuteOf(start), dateEnd: minuteOf(end) } });
    for (const report of queued) expect((await waitForReport(ctx, joao, report._id)).status.id).toBe(2);
  });

  it('refuses what is not one .xlsx (400 in Portuguese)', async () => {
    const cases: Array<[string, Parameters<typeof upload>[2], string]> = [
      ['a PDF', [pdfPart(await foreignPdf())], REPORT_MESSAGES.notXlsx],
      ['a CSV named .xlsx', [xlsxPart(Buffer.from('MAC;Início;Fim;Tipo\n'))], REPORT_MESSAGES.notXlsx],
      ['a broken zip', [xlsxPart(Buffer.from('PK\x03\x04 quebrado'))], REPORT_MESSAGES.notXlsx],
      ['two files', [xlsxPart(await xlsxWith([])), xlsxPart(await xlsxWith([]))], REPORT_MESSAGES.oneFile],
      ['no file', [], REPORT_MESSAGES.noFile],
      ['only the header', [xlsxPart(await xlsxWith([]))], 'A planilha não tem nenhuma linha preenchida abaixo do cabeçalho.'],
    ];
    for (const [label, parts, message] of cases) {
      const res = await upload(ctx, URL, parts, joao);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().error, label).toBe(message);
    }
  });

  it('refuses more than 500 rows, queueing none', async () => {
    const before = (await myReports()).length;
    const now = ctx.clock.now();
    const row = [MACS.truck1, saoPauloText(new Date(now.getTime() - hours(2))), saoPauloText(now), 'PDF'];
    const res = await upload(ctx, URL, [xlsxPart(await xlsxWith(Array.from({ length: 501 }, () => row)))], joao);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('A planilha tem mais de 500 linhas de relatórios. Divida-a em arquivos menores.');
    expect((await myReports()).length).toBe(before);
  });

  it('anonymous callers get 401', async () => {
    const res = await upload(ctx, URL, [xlsxPart(await xlsxWith([]))]);
    expect(res.statusCode).toBe(401);
  });
});
