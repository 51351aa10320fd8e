import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_MESSAGES as B, type ExcelGenerationResult, type Report } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { saoPauloText, upload, waitForReport, xlsxPart, xlsxWith, type UploadPart } from './report-helpers';
import { MACS } from './travel-helpers';

/**
 * Issue 26: spreadsheet imports read their columns by the header (any order, accents and case ignored) and say
 * which column is missing; the CSV reader is csv-parse and takes the Windows-1252 files Excel in Portuguese saves.
 * X1 (beacon registration, /beacons) and R5 (reports from the template).
 */
let ctx: TestContext;
let admin: string;
let aurora: string;
const IMPORT = '/api/beacon-device/import';
const GENERATE = '/api/reports/generate-reports-by-excel';
const csv = (data: Buffer | string, filename = 'dispositivos.csv'): UploadPart => ({ filename, contentType: 'text/csv', data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data });
const deviceByMac = (mac: string) => ctx.db.selectFrom('devices').select(['name', 'model']).where('mac', '=', mac).executeTakeFirst();

/** Windows-1252 bytes of a text (what "CSV (separado por vírgulas)" of Excel pt-BR writes). */
function cp1252(text: string): Buffer {
  // The characters of 0x80–0x9F a name may hold; the rest of Latin-1 is the same byte.
  const table: Record<string, number> = { '€': 0x80, '“': 0x93, '”': 0x94, '–': 0x96, 'œ': 0x9c };
  return Buffer.from([...text].map((ch) => table[ch] ?? (ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f)));
}

async function sheet(name: string, rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet(name);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  admin = (await ctx.login('admin')).token;
  aurora = (await ctx.login('aurora.adm')).token;
});
afterAll(() => ctx.close());

describe('beacon lists (X1) by their header', () => {
  it('reads the columns in any order, accents, case and extra columns ignored', async () => {
    const file = await sheet('Dispositivos', [
      ['Observações', 'MODELO', 'nome', 'Endereço MAC'],
      ['sala 2', 'SNT-T1', 'Câmara Leste', 'aa:bb:cc:10:00:01'],
      ['', null, 'Câmara Oeste', 'AA-BB-CC-10-00-02'],
    ]);
    const res = await upload(ctx, IMPORT, [xlsxPart(file, 'lista.xlsx')], admin);
    expect(res.json()).toEqual({ registered: 2, errors: [] });
    expect(await deviceByMac('AA:BB:CC:10:00:01')).toEqual({ name: 'Câmara Leste', model: 'SNT-T1' });
    expect(await deviceByMac('AA:BB:CC:10:00:02')).toEqual({ name: 'Câmara Oeste', model: null });
  });

  it('says which column is missing, or named twice (400), and registers nothing', async () => {
    const noName = await upload(ctx, IMPORT, [xlsxPart(await sheet('Dispositivos', [['MAC', 'Modelo'], ['AA:BB:CC:10:00:03', 'X']]))], admin);
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error).toBe(
      'A planilha não tem a coluna "Nome". A primeira linha preenchida deve ser o cabeçalho, com as colunas "MAC", "Nome" e "Modelo" (opcional), em qualquer ordem.',
    );
    // A sheet without a header: its first row is read as one, and neither column is there.
    const headless = await upload(ctx, IMPORT, [csv('AA:BB:CC:10:00:03;Sensor\n')], admin);
    expect(headless.statusCode).toBe(400);
    expect(headless.json().error).toMatch(/^A planilha não tem as colunas "MAC" e "Nome"\./);
    const twice = await upload(ctx, IMPORT, [csv('MAC;Nome;mac\nAA:BB:CC:10:00:03;Sensor;x\n')], admin);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe('A coluna "MAC" aparece mais de uma vez no cabeçalho da planilha (colunas A e C).');
    expect(await deviceByMac('AA:BB:CC:10:00:03')).toBeUndefined();
  });

  it('reads a CSV saved by Excel in Portuguese (Windows-1252), and UTF-8 with or without BOM', async () => {
    const ansi = cp1252('Nome;MAC;Modelo\r\nCâmara Fria Ação – 1;AA:BB:CC:10:00:04;SNT\r\n');
    expect(ansi.includes(Buffer.from('Câmara', 'utf8'))).toBe(false);
    expect((await upload(ctx, IMPORT, [csv(ansi)], admin)).json()).toEqual({ registered: 1, errors: [] });
    expect((await deviceByMac('AA:BB:CC:10:00:04'))!.name).toBe('Câmara Fria Ação – 1');
    expect((await upload(ctx, IMPORT, [csv('Nome,MAC\n"Geladeira, Açougue",AA:BB:CC:10:00:05\n')], admin)).json()).toEqual({ registered: 1, errors: [] });
    expect((await deviceByMac('AA:BB:CC:10:00:05'))!.name).toBe('Geladeira, Açougue');
    expect((await upload(ctx, IMPORT, [csv('\ufeffMAC;Nome\nAA:BB:CC:10:00:06;Balcão\n')], admin)).json()).toEqual({ registered: 1, errors: [] });
    expect((await deviceByMac('AA:BB:CC:10:00:06'))!.name).toBe('Balcão');
  });

  it('numbers rows as a spreadsheet shows them (blank lines and quoted line breaks), and names a malformed line', async () => {
    const res = await upload(ctx, IMPORT, [csv('MAC;Nome\r\n\r\n"zz";"Nome em\r\nduas linhas"\r\n;Sem MAC\r\n')], admin);
    expect(res.json()).toEqual({ registered: 0, errors: [`Linha 3: ${B.macInvalid} (zz)`, `Linha 4: ${B.macRequired}`] });
    const broken = await upload(ctx, IMPORT, [csv('MAC;Nome\nAA:BB:CC:10:00:07;"sem fim\n')], admin);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toMatch(/^O arquivo \.csv está malformado perto da linha \d+/);
  });
});

describe('report sheets (R5) by their header', () => {
  const start = () => new Date(ctx.clock.now().getTime() - 6 * 3600_000);
  const end = () => new Date(ctx.clock.now().getTime() - 3600_000);

  it('reads the template\'s columns in any order and under the names people give them', async () => {
    const before = new Set(((await ctx.request('GET', '/api/reports', aurora)).json() as Report[]).map((r) => r._id));
    const file = await xlsxWith(
      [
        ['pdf', saoPauloText(end()), MACS.chamber, 'x', saoPauloText(start())],
        ['EXCEL', saoPauloText(end()), MACS.freezer, '', saoPauloText(start())],
      ],
      ['TIPO', 'Data Final', 'mac', 'Comentário', 'DATA/HORA INICIO'],
    );
    const res = await upload(ctx, GENERATE, [xlsxPart(file)], aurora);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as ExcelGenerationResult).toEqual({ reportsToProccess: 2, errors: [] });
    const queued = ((await ctx.request('GET', '/api/reports', aurora)).json() as Report[]).filter((r) => !before.has(r._id));
    expect(queued.map((r) => `${r.mac} ${r.type}`).sort()).toEqual([`${MACS.chamber} pdf`, `${MACS.freezer} xlsx`]);
    for (const r of queued) await waitForReport(ctx, aurora, r._id);
  });

  it('says which of its columns is missing (400), queueing nothing', async () => {
    const file = await xlsxWith([[MACS.chamber, saoPauloText(start()), saoPauloText(end())]], ['MAC', 'Data/Hora Início', 'Data/Hora Fim']);
    const res = await upload(ctx, GENERATE, [xlsxPart(file)], aurora);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(
      'A planilha não tem a coluna "Tipo (PDF ou EXCEL)". A primeira linha preenchida deve ser o cabeçalho, com as colunas "MAC", "Data/Hora Início", "Data/Hora Fim" e "Tipo (PDF ou EXCEL)", em qualquer ordem.',
    );
  });
});
