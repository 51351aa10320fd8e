import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { SHEET_COLUMNS, readSheetLines, type CellValue } from './sheet-reader';
import { readZipDirectory } from './zip-directory';

/**
 * The streaming reader gives the column rules exactly the values today's exceljs reader gave them (ADR 13): the
 * previous reader's loop, kept here as the reference, against readSheetLines on the same files.
 */

function exceljsValue(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value !== 'object') return value;
  if ('result' in value) return exceljsValue(value.result as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return exceljsValue(value.text as ExcelJS.CellValue);
  return null;
}

async function referenceLines(data: Buffer): Promise<Array<{ row: number; cells: CellValue[] }>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Relatórios') ?? workbook.worksheets[0]!;
  const lines: Array<{ row: number; cells: CellValue[] }> = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells = Array.from({ length: SHEET_COLUMNS }, (_, c) => exceljsValue(row.getCell(c + 1).value));
    // Blank rows are skipped; the header is a line like any other (the columns are found by it, header-columns.ts).
    if (cells.every((v) => v === null || (typeof v === 'string' && v.trim() === ''))) return;
    lines.push({ row: number, cells });
  });
  return lines;
}

function streamed(data: Buffer, maxRows = 500) {
  const limits = { maxEntries: 1000, maxInflatedBytes: 50 * 1024 * 1024 };
  return readSheetLines(data, readZipDirectory(data, limits), { maxInflatedBytes: limits.maxInflatedBytes, maxRows, sheetName: 'Relatórios' });
}

async function trickyWorkbook(options: { date1904?: boolean; sheetFirst?: string } = {}): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  if (options.date1904) workbook.properties.date1904 = true;
  if (options.sheetFirst) workbook.addWorksheet(options.sheetFirst).addRow(['não é esta aba']);
  const sheet = workbook.addWorksheet('Relatórios');
  sheet.addRow(['MAC', 'Data/Hora Início', 'Data/Hora Fim', 'Tipo']);
  const when = new Date(Date.UTC(2026, 10, 24, 8, 30));
  sheet.addRow(['C3:00:00:00:01:01', when, 46_350.5, 'PDF']);
  sheet.getCell('B2').numFmt = 'dd/mm/yyyy hh:mm';
  sheet.addRow([
    { richText: [{ text: 'C3:00:00' }, { font: { bold: true }, text: ':00:01:02' }] },
    { formula: 'B2+1', result: new Date(Date.UTC(2026, 10, 25, 8, 30)) },
    { formula: '"24/11/2026 "&"10:00"', result: '24/11/2026 10:00' },
    true,
  ]);
  sheet.getCell('B3').numFmt = 'dd/mm/yyyy hh:mm';
  sheet.addRow([{ text: 'C3:00:00:00:01:03', hyperlink: 'https://example.com' }, { error: '#N/A' }, 46_351.25, { formula: '1=1', result: false }]);
  sheet.getCell('C4').numFmt = 'mm-dd-yy';
  sheet.addRow([]);
  const onlyE = sheet.addRow([]);
  onlyE.getCell(5).value = 'uma coluna a mais';
  const beyond = sheet.addRow([]);
  beyond.getCell(SHEET_COLUMNS + 1).value = 'além das colunas lidas';
  sheet.addRow(['  mac  ', '', null, 'excel']);
  sheet.addRow(['C3:00:00:00:01:04', '31/02/2026 10:00', '[h]', '"quoted"']);
  sheet.getCell('C8').value = 46_000;
  sheet.getCell('C8').numFmt = '[h]:mm:ss';
  sheet.getCell('D8').value = 7;
  sheet.getCell('D8').numFmt = '"dias "0';
  return workbook;
}

describe('readSheetLines', () => {
  for (const [label, options, sharedStrings] of [
    ['shared strings, 1900 dates', {}, true],
    ['inline strings, 1904 dates, the report sheet second', { date1904: true, sheetFirst: 'Capa' }, false],
  ] as const) {
    it(`gives exceljs's values: ${label}`, async () => {
      const workbook = await trickyWorkbook(options);
      const data = Buffer.from(await workbook.xlsx.writeBuffer({ useSharedStrings: sharedStrings } as ExcelJS.XlsxWriteOptions));
      const expected = await referenceLines(data);
      expect(expected.length).toBeGreaterThan(4);
      const { lines, overflow } = streamed(data);
      expect(overflow).toBe(false);
      expect(lines).toEqual(expected);
    });
  }

  it('stops at the first row past the cap', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Relatórios');
    for (let i = 0; i < 30; i++) sheet.addRow([`linha ${i}`]);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const { lines, overflow } = streamed(data, 10);
    expect(overflow).toBe(true);
    expect(lines.map((l) => l.row)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });
});
