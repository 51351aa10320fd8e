import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { REPORT_MESSAGES, type ExcelGenerationResult } from '@sentinela/contract';
import { inflatingSpreadsheet } from '../../../bench/lib/hostile-xlsx';
import { REPORT_SERVER_MESSAGES as M } from '../src/modules/reports/messages';
import { createTestContext, type TestContext } from './context';
import { foreignPdf, pdfPart, saoPauloText, upload, xlsxPart, xlsxWith } from './report-helpers';
import { MACS } from './travel-helpers';

/** Issue 9, item 4: a spreadsheet upload cannot take the platform, and uploads are limited per user. */

const URL = '/api/reports/generate-reports-by-excel';
const hours = (n: number) => n * 3600_000;

async function reportCount(ctx: TestContext): Promise<number> {
  const row = await ctx.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('zip bombs (REPORT_EXCEL_MAX_INFLATED_BYTES = 64 KB)', () => {
  let ctx: TestContext;
  let joao: string;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { reportExcelMaxInflatedBytes: 64 * 1024, reportWorkers: 0 } });
    joao = (await ctx.login('joao.silva')).token;
  });
  afterAll(() => ctx.close());
  afterEach(() => vi.restoreAllMocks());

  it('refuses by the declared sizes, before any part is inflated (413)', async () => {
    const read = vi.spyOn(ctx.services.spreadsheetReaders, 'read');
    const before = await reportCount(ctx);
    const res = await upload(ctx, URL, [xlsxPart(await inflatingSpreadsheet({ rows: 1000 }))], joao);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('A planilha descompactada passa de 64 KB. Envie só a aba de relatórios, com no máximo 500 linhas.');
    expect(read).not.toHaveBeenCalled();
    expect(await reportCount(ctx)).toBe(before);
  });

  it('stops inflating at the cap when the headers lie (413)', async () => {
    const read = vi.spyOn(ctx.services.spreadsheetReaders, 'read');
    const liar = await inflatingSpreadsheet({ rows: 400, declaredSheetBytes: 2000 });
    const res = await upload(ctx, URL, [xlsxPart(liar)], joao);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(M.excelInflatedTooLarge(64 * 1024));
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('still reads an ordinary spreadsheet under the cap', async () => {
    const now = ctx.clock.now();
    const file = await xlsxWith([[MACS.truck1, saoPauloText(new Date(now.getTime() - hours(3))), saoPauloText(now), 'PDF']]);
    const res = await upload(ctx, URL, [xlsxPart(file)], joao);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ExcelGenerationResult).reportsToProccess).toBe(1);
  });

  it('refuses archives that are not plain .xlsx: encrypted or unknown compression (400)', async () => {
    const file = await inflatingSpreadsheet({ rows: 2 });
    const central = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const encrypted = Buffer.from(file);
    encrypted.writeUInt16LE(encrypted.readUInt16LE(central + 8) | 1, central + 8);
    const bzip2 = Buffer.from(file);
    bzip2.writeUInt16LE(12, central + 10);
    for (const [data, message] of [
      [encrypted, M.excelEncrypted],
      [bzip2, M.excelOddParts],
    ] as const) {
      const res = await upload(ctx, URL, [xlsxPart(data)], joao);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });
});

describe('a spreadsheet of hundreds of thousands of rows', () => {
  let ctx: TestContext;
  let joao: string;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { reportWorkers: 0, reportExcelThreads: 2 } });
    joao = (await ctx.login('joao.silva')).token;
  });
  afterAll(() => ctx.close());
  afterEach(() => vi.restoreAllMocks());

  it('declaring its size: refused at once (413)', async () => {
    const file = await inflatingSpreadsheet({ rows: 350_000 });
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const read = vi.spyOn(ctx.services.spreadsheetReaders, 'read');
    const res = await upload(ctx, URL, [xlsxPart(file)], joao);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('A planilha descompactada passa de 50 MB. Envie só a aba de relatórios, com no máximo 500 linhas.');
    // Refused from the archive's directory: nothing was inflated, in a thread or anywhere else.
    expect(read).not.toHaveBeenCalled();
  });

  it('lying about it, two at once: each stops at the row cap off the main thread (400), queueing nothing', async () => {
    // 80 MB of sheet that claims 10 KB: only the row count stops it.
    const file = await inflatingSpreadsheet({ rows: 350_000, declaredSheetBytes: 10_000 });
    const before = await reportCount(ctx);
    const heapBefore = process.memoryUsage().heapUsed;
    const read = vi.spyOn(ctx.services.spreadsheetReaders, 'read');
    const result = await Promise.all([upload(ctx, URL, [xlsxPart(file)], joao), upload(ctx, URL, [xlsxPart(file)], joao)]);
    for (const res of result) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('A planilha tem mais de 500 linhas de relatórios. Divida-a em arquivos menores.');
    }
    // The old reader stalled the loop for 15 s and grew the heap by gigabytes. Both files went to the reader pool,
    // whose work runs in threads (proven below: only a thread's heap limit answers 413), so the loop stays free; how
    // long it stays free is measured by the bench, not asserted here.
    expect(read).toHaveBeenCalledTimes(2);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    expect(await reportCount(ctx)).toBe(before);
  });
});

describe('a reader thread that runs out of memory', () => {
  let ctx: TestContext;
  let joao: string;
  beforeAll(async () => {
    ctx = await createTestContext({
      demo: true,
      config: { reportWorkers: 0, reportExcelThreadMemoryMb: 48, reportExcelMaxInflatedBytes: 200 * 1024 * 1024 },
    });
    joao = (await ctx.login('joao.silva')).token;
  });
  afterAll(() => ctx.close());

  it('answers 413 for that file, and the next upload gets a new thread', async () => {
    // 1.5 million distinct shared strings (4 MB compressed, 60 MB of XML) must all be held before the first row.
    const heavy = await inflatingSpreadsheet({ rows: 2, sharedStrings: 1_500_000 });
    const res = await upload(ctx, URL, [xlsxPart(heavy)], joao);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(M.excelTooHeavy);

    const now = ctx.clock.now();
    const file = await xlsxWith([[MACS.truck1, saoPauloText(new Date(now.getTime() - hours(3))), saoPauloText(now), 'PDF']]);
    const next = await upload(ctx, URL, [xlsxPart(file)], joao);
    expect(next.statusCode, next.body).toBe(200);
  });
});

describe('REPORT_UPLOAD_MAX_PER_MINUTE', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { reportUploadMaxPerMinute: 3, reportWorkers: 0 } });
  });
  afterAll(() => ctx.close());

  it('limits every upload route per user, not per address, with a pt-BR 429', async () => {
    const joao = (await ctx.login('joao.silva')).token;
    const maria = (await ctx.login('maria.souza')).token;
    const headerOnly = await xlsxWith([]);
    for (let i = 0; i < 2; i++) expect((await upload(ctx, URL, [xlsxPart(headerOnly)], joao)).statusCode).toBe(400);
    // The validator counts toward the same limit when the caller is signed in.
    expect((await upload(ctx, '/api/report/validate', [pdfPart(await foreignPdf())], joao)).statusCode).toBe(200);
    for (const url of [URL, '/api/report/validate']) {
      const res = await upload(ctx, url, [xlsxPart(headerOnly)], joao);
      expect(res.statusCode, url).toBe(429);
      expect(res.json().error).toBe(M.tooManyUploads);
    }
    // Same address, another user (of another enterprise): not limited by João's uploads.
    const other = await upload(ctx, URL, [xlsxPart(headerOnly)], maria);
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe(M.excelNoRows);
  });

  it('refuses an upload over the limit before reading its body, and closes the connection', async () => {
    const admin = (await ctx.login('aurora.adm')).token;
    const headerOnly = await xlsxWith([]);
    for (let i = 0; i < 3; i++) expect((await upload(ctx, URL, [xlsxPart(headerOnly)], admin)).statusCode).toBe(400);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new globalThis.URL(address);
    // Over the limit, only the headers of a 5 MB upload are sent: the answer must come without the body, and the
    // server must hang up rather than wait to read and discard it.
    const socket = connect(Number(port), '127.0.0.1');
    onTestFinished(() => void socket.destroy());
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST ${URL} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${admin}\r\n` +
        `content-type: multipart/form-data; boundary=x\r\ncontent-length: ${5 * 1024 * 1024}\r\n\r\n--x\r\n`,
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 429 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received).toMatch(/retry-after: \d+/i);
  });
});

describe('the spreadsheet is still refused when it is not one (regression)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { reportWorkers: 0 } });
  });
  afterAll(() => ctx.close());

  it('an archive without a workbook is not an .xlsx (400)', async () => {
    const joao = (await ctx.login('joao.silva')).token;
    const { zipSync } = await import('fflate');
    const zip = Buffer.from(zipSync({ 'leia-me.txt': new TextEncoder().encode('não sou uma planilha') }));
    const res = await upload(ctx, URL, [xlsxPart(zip)], joao);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(REPORT_MESSAGES.notXlsx);
  });
});
