import { randomBytes } from 'node:crypto';
import { crc32, createDeflateRaw } from 'node:zlib';

/**
 * Hostile spreadsheets for the abuse bench and the upload tests: real .xlsx files (exceljs opens them) whose one
 * sheet holds far more report rows than an upload may carry, built streaming so that a file inflating to gigabytes
 * costs only its compressed size in memory here.
 */
export interface InflatingSpreadsheetOptions {
  /** Data rows below the header, each a well-formed report row (MAC, start, end, PDF). */
  rows: number;
  /**
   * Pads the file up to about this many bytes with an incompressible picture-like part (stored, not deflated), as a
   * real spreadsheet with an image would be: "a 5 MB file". Absent: no padding.
   */
  compressedTarget?: number;
  /**
   * Writes this uncompressed size for the sheet in the zip's headers instead of the true one (a lying archive, which
   * only a reader that counts while it inflates can catch). Absent: the true size.
   */
  declaredSheetBytes?: number;
  /**
   * Adds a shared-strings part of this many distinct strings (each about 40 bytes of XML), which a reader must hold
   * whole before the first row: a file whose rows are few but whose reading needs hundreds of megabytes of heap.
   */
  sharedStrings?: number;
  /** Deflate level of the sheet (1–9); 6 by default (9 gains little on these rows and takes twice as long). */
  level?: number;
}

const SHEET_PATH = 'xl/worksheets/sheet1.xml';
const ROWS_PER_CHUNK = 2000;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/${SHEET_PATH}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Relatórios" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = (withStrings: boolean) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>${
  withStrings ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' : ''
}</Relationships>`;
const SHEET_START = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_END = '</sheetData></worksheet>';

// Row and cell references are written out: exceljs (today's reader, and the bench's baseline) needs them.
function inlineRow(n: number, values: string[]): string {
  return `<row r="${n}">${values.map((v, i) => `<c r="${'ABCD'[i]}${n}" t="inlineStr"><is><t>${v}</t></is></c>`).join('')}</row>`;
}

/** One part of the archive, compressed, with what its headers say about it. */
interface Part {
  name: Buffer;
  data: Buffer;
  method: 0 | 8;
  crc: number;
  size: number;
  declaredSize: number;
}

async function deflatedPart(name: string, chunks: Iterable<string>, level: number, declaredSize?: number): Promise<Part> {
  const deflate = createDeflateRaw({ level });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  let size = 0;
  for (const text of chunks) {
    const bytes = Buffer.from(text, 'utf8');
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { name: Buffer.from(name, 'utf8'), data: Buffer.concat(out), method: 8, crc, size, declaredSize: declaredSize ?? size };
}

function storedPart(name: string, data: Buffer): Part {
  return { name: Buffer.from(name, 'utf8'), data, method: 0, crc: crc32(data), size: data.length, declaredSize: data.length };
}

function* sharedStringChunks(count: number): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${count}" uniqueCount="${count}">`;
  for (let first = 0; first < count; first += ROWS_PER_CHUNK * 10) {
    const items: string[] = [];
    for (let n = first; n < Math.min(first + ROWS_PER_CHUNK * 10, count); n++) items.push(`<si><t>texto compartilhado ${n}</t></si>`);
    yield items.join('');
  }
  yield '</sst>';
}

function* sheetChunks(rows: number): Generator<string> {
  yield SHEET_START + inlineRow(1, ['MAC', 'Data/Hora Início', 'Data/Hora Fim', 'Tipo (PDF ou EXCEL)']);
  const values = ['C3:00:00:00:01:01', '01/11/2026 00:00', '02/11/2026 00:00', 'PDF'];
  for (let first = 2; first <= rows + 1; first += ROWS_PER_CHUNK) {
    const lines: string[] = [];
    for (let n = first; n < Math.min(first + ROWS_PER_CHUNK, rows + 2); n++) lines.push(inlineRow(n, values));
    yield lines.join('');
  }
  yield SHEET_END;
}

/** A zip archive of these parts: local headers with the sizes known up front (no data descriptors), then the directory. */
function zipOf(parts: Part[]): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(Math.min(p.declaredSize, 0xfffffffe), 22);
    local.writeUInt16LE(p.name.length, 26);
    local.writeUInt16LE(0, 28);
    out.push(local, p.name, p.data);

    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(p.method, 10);
    entry.writeUInt32LE(0x00210000, 12);
    entry.writeUInt32LE(p.crc >>> 0, 16);
    entry.writeUInt32LE(p.data.length, 20);
    entry.writeUInt32LE(Math.min(p.declaredSize, 0xfffffffe), 24);
    entry.writeUInt16LE(p.name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, p.name);
    offset += local.length + p.name.length + p.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end]);
}

/**
 * An .xlsx whose sheet "Relatórios" has a header and `rows` report rows: about 230 bytes of XML and 15 compressed
 * bytes each, so 350,000 rows fit in 5 MB and inflate to 80 MB of XML, which exceljs turns into gigabytes of objects
 * (the spreadsheet of issue 9). `declaredSheetBytes` makes the archive lie about the size, `compressedTarget` pads it.
 */
export async function inflatingSpreadsheet(options: InflatingSpreadsheetOptions): Promise<Buffer> {
  const level = options.level ?? 6;
  const parts = [
    await deflatedPart('[Content_Types].xml', [CONTENT_TYPES], level),
    await deflatedPart('_rels/.rels', [ROOT_RELS], level),
    await deflatedPart('xl/workbook.xml', [WORKBOOK], level),
    await deflatedPart('xl/_rels/workbook.xml.rels', [WORKBOOK_RELS(!!options.sharedStrings)], level),
    await deflatedPart(SHEET_PATH, sheetChunks(options.rows), level, options.declaredSheetBytes),
  ];
  if (options.sharedStrings) parts.push(await deflatedPart('xl/sharedStrings.xml', sharedStringChunks(options.sharedStrings), level));
  const unpadded = zipOf(parts).length;
  const overhead = 30 + 46 + 2 * 'xl/media/image1.bin'.length;
  if (options.compressedTarget && options.compressedTarget > unpadded + overhead) {
    parts.push(storedPart('xl/media/image1.bin', randomBytes(options.compressedTarget - unpadded - overhead)));
  }
  return zipOf(parts);
}

/** The uncompressed size of the sheet of `inflatingSpreadsheet({ rows })`, without building it. */
export function inflatedSheetBytes(rows: number): number {
  let size = 0;
  for (const chunk of sheetChunks(rows)) size += Buffer.byteLength(chunk, 'utf8');
  return size;
}
