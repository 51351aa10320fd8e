import ExcelJS from 'exceljs';
import { EXCEL_TEMPLATE_COLUMNS } from '@sentinela/contract';
import type { WallClock } from '../../lib/time-zone';

/** Most report rows one upload may carry (R5). */
export const EXCEL_MAX_ROWS = 500;
/** Longest period one row may ask for. */
export const EXCEL_MAX_PERIOD_DAYS = 366;
export const EXCEL_SHEET_NAME = 'Relatórios';
export const EXCEL_DATE_FORMAT = 'dd/mm/yyyy hh:mm';

/** A wall-clock time as Excel stores it: a date without zone, which exceljs reads and writes through UTC fields. */
export function excelDate(w: WallClock): Date {
  return new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
}

/**
 * The downloadable template (R5): the four columns, one example row with real dates (typed as dates, so Excel
 * offers its date editing), a PDF/EXCEL list on the type column, and a sheet of instructions in Portuguese.
 */
export async function buildExcelTemplate(example: { mac: string; from: WallClock; to: WallClock }, timeZone: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sentinela';
  workbook.created = new Date();

  const sheet = workbook.addWorksheet(EXCEL_SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = EXCEL_TEMPLATE_COLUMNS.map((header, i) => ({ header, key: `c${i}`, width: [24, 20, 20, 20][i] }));
  sheet.getRow(1).font = { bold: true, color: { argb: 'FFFFFFFF' } };
  sheet.getRow(1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF0B7285' } };
  sheet.addRow([example.mac, excelDate(example.from), excelDate(example.to), 'PDF']);
  for (const column of [2, 3]) sheet.getColumn(column).numFmt = EXCEL_DATE_FORMAT;
  for (let row = 2; row <= EXCEL_MAX_ROWS + 1; row++) {
    sheet.getCell(row, 4).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: ['"PDF,EXCEL"'],
      showErrorMessage: true,
      errorTitle: 'Tipo inválido',
      error: 'Escolha PDF ou EXCEL.',
    };
  }

  const help = workbook.addWorksheet('Instruções');
  help.getColumn(1).width = 110;
  const lines = [
    'Como gerar relatórios a partir desta planilha',
    '',
    `1. Preencha uma linha por relatório na aba "${EXCEL_SHEET_NAME}", a partir da linha 2 (a linha 1 é o cabeçalho).`,
    '   As colunas são lidas pelo nome do cabeçalho, em qualquer ordem; outras colunas que você acrescentar são ignoradas.',
    '2. MAC: o endereço do dispositivo, no formato AA:BB:CC:DD:EE:FF. Use apenas dispositivos que você pode ver na plataforma.',
    `3. Data/Hora Início e Data/Hora Fim: datas do Excel ou texto no formato DD/MM/AAAA HH:mm, no horário de ${timeZone}.`,
    `   A data final deve ser posterior à inicial, e o período pode ter no máximo ${EXCEL_MAX_PERIOD_DAYS} dias.`,
    '4. Tipo: PDF ou EXCEL.',
    `5. No máximo ${EXCEL_MAX_ROWS} linhas por arquivo. Linhas em branco são ignoradas.`,
    '6. Envie o arquivo em Relatórios > Gerar relatórios. As linhas corretas entram na fila de geração; cada linha com',
    '   problema aparece numa mensagem com o número da linha, para você corrigir e enviar de novo só essas linhas.',
    '7. Acompanhe o andamento na lista de relatórios e baixe cada arquivo quando o status for "Gerado".',
    '',
    'A linha 2 traz um exemplo: substitua-a pelos seus relatórios.',
  ];
  lines.forEach((text, i) => {
    const cell = help.getCell(i + 1, 1);
    cell.value = text;
    if (i === 0) cell.font = { bold: true, size: 14 };
  });

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
