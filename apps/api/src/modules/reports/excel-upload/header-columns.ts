import { badRequest } from '../../../lib/errors';
import type { CellValue, SheetLine } from './sheet-reader';

/**
 * Uploaded spreadsheets are read by their header, not by position (issue 26): the first filled row names the
 * columns, in any order, accents, case, spacing and a trailing "(…)" ignored ("Data/Hora Início", "data/hora inicio",
 * "DATA / HORA INÍCIO (dd/mm/aaaa)" are one column); columns nobody asked for are ignored. A required column that is
 * missing, or one named twice, is a 400 saying which, in pt-BR.
 */
export interface ColumnSpec<K extends string> {
  key: K;
  /** The name the template and the messages use. */
  label: string;
  /** Other names people give the column (compared after the same normalisation). */
  aliases?: readonly string[];
  required: boolean;
}

/** "Data/Hora Início (dd/mm/aaaa)" → "data/hora inicio". */
export function normalizeHeader(value: CellValue): string {
  if (value === null || value === undefined) return '';
  return String(value)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[*:]/g, ' ')
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s+/g, ' ')
    .trim();
}

const quoted = (labels: string[]) => labels.map((l) => `"${l}"`);

function listText(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} e ${items.at(-1)}`;
}

/**
 * The position of each column in `header`. Throws 400 when a required column is missing (all of them named) or a
 * column is named twice.
 */
export function columnsOf<K extends string>(header: readonly CellValue[], specs: readonly ColumnSpec<K>[]): Record<K, number | null> {
  const names = header.map(normalizeHeader);
  const found = {} as Record<K, number | null>;
  const missing: string[] = [];
  for (const spec of specs) {
    const accepted = new Set([spec.label, ...(spec.aliases ?? [])].map(normalizeHeader));
    const positions = names.flatMap((name, i) => (accepted.has(name) ? [i] : []));
    if (positions.length > 1) throw badRequest(`A coluna "${spec.label}" aparece mais de uma vez no cabeçalho da planilha (colunas ${positions.map(columnLetter).join(' e ')}).`);
    found[spec.key] = positions[0] ?? null;
    if (positions.length === 0 && spec.required) missing.push(spec.label);
  }
  if (missing.length > 0) {
    const expected = specs.map((s) => (s.required ? `"${s.label}"` : `"${s.label}" (opcional)`));
    throw badRequest(
      `${missing.length === 1 ? `A planilha não tem a coluna ${quoted(missing)[0]}` : `A planilha não tem as colunas ${listText(quoted(missing))}`}. ` +
        `A primeira linha preenchida deve ser o cabeçalho, com as colunas ${listText(expected)}, em qualquer ordem.`,
    );
  }
  return found;
}

/** Column A, B, …, Z, AA… as a spreadsheet shows it. */
function columnLetter(index: number): string {
  let n = index + 1;
  let text = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    text = String.fromCharCode(65 + r) + text;
    n = Math.floor((n - 1) / 26);
  }
  return text;
}

/** The header (the first filled line) and the data lines below it, each with its cells picked by the columns found. */
export function byHeader<K extends string>(lines: readonly SheetLine[], specs: readonly ColumnSpec<K>[]): { row: number; cells: Record<K, CellValue> }[] {
  const [header, ...data] = lines;
  if (!header) return [];
  const columns = columnsOf(header.cells, specs);
  return data.map((line) => {
    const cells = {} as Record<K, CellValue>;
    for (const spec of specs) {
      const at = columns[spec.key];
      cells[spec.key] = at === null ? null : (line.cells[at] ?? null);
    }
    return { row: line.row, cells };
  });
}
