import ExcelJS from 'exceljs';
import { BEACON_IMPORT_COLUMNS } from '@sentinela/contract';
import { BEACON_IMPORT_MAX_ROWS, BEACON_IMPORT_SHEET } from './import-file';

/** The downloadable beacon list (X1): MAC, Nome, Modelo, one example row and a sheet of instructions. */
export async function buildBeaconImportTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sentinela';
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(BEACON_IMPORT_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = BEACON_IMPORT_COLUMNS.map((header, i) => ({ header, key: `c${i}`, width: [24, 36, 20][i] }));
  sheet.getRow(1).font = { bold: true, color: { argb: 'FFFFFFFF' } };
  sheet.getRow(1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF0B7285' } };
  // Text cells: a MAC such as 00:11:… or 001122… must not become a number or a time.
  sheet.getColumn(1).numFmt = '@';
  sheet.addRow(['AA:BB:CC:DD:EE:01', 'Câmara Fria 01', 'SNT-T1']);

  const help = workbook.addWorksheet('Instruções');
  help.getColumn(1).width = 110;
  const lines = [
    'Como cadastrar dispositivos a partir desta planilha',
    '',
    `1. Preencha uma linha por dispositivo na aba "${BEACON_IMPORT_SHEET}", a partir da linha 2 (a linha 1 é o cabeçalho).`,
    '   As colunas são lidas pelo nome do cabeçalho (MAC, Nome, Modelo), em qualquer ordem; outras colunas são ignoradas.',
    '2. MAC: o endereço do beacon, como AA:BB:CC:DD:EE:FF, aa-bb-cc-dd-ee-ff ou aabbccddeeff. Cada MAC só pode ser cadastrado uma vez.',
    '3. Nome: como o dispositivo aparece na plataforma (até 80 caracteres).',
    '4. Modelo: opcional; aparece como número de série.',
    `5. No máximo ${BEACON_IMPORT_MAX_ROWS} linhas por arquivo. Linhas em branco são ignoradas. Também é aceito um arquivo .csv com as mesmas colunas (separadas por ";" ou ","), em UTF-8 ou como o Excel salva (Windows-1252).`,
    '6. As linhas corretas são cadastradas; cada linha com problema aparece numa mensagem com o número da linha.',
    '',
    'A linha 2 traz um exemplo: substitua-a pelos seus dispositivos.',
  ];
  lines.forEach((text, i) => {
    const cell = help.getCell(i + 1, 1);
    cell.value = text;
    if (i === 0) cell.font = { bold: true, size: 14 };
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
