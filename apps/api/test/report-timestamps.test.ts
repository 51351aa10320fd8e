import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import type { InvoiceListResponse, Report, ReportValidation } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutgoingClient } from '../src/lib/outgoing/outgoing-client';
import { pdfTimestamps } from '../src/reports/signing/pdf-timestamps';
import { signatureTimestamps, timeStampRequest, TimestampError, tokenFromResponse, trimDerPadding } from '../src/reports/signing/timestamp-token';
import { tsaTimestamper } from '../src/reports/signing/tsa-client';
import { pdfsig, signatureValidation } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { opensslVerifiesToken, startFakeTsa, type FakeTsa } from './fake-tsa';
import { pdfPart, upload, waitForReport } from './report-helpers';
import { MACS } from './travel-helpers';

/**
 * X12, issue 24 point 2 (ADR 79): signatures that outlive their certificate. With REPORT_TSA_URL set every PDF
 * signature carries an RFC 3161 signature timestamp (PAdES B-T) from a local TSA built on `openssl ts`; a TSA that
 * fails never loses a report: it is signed without one, marked pending, and a job adds a document timestamp later.
 */
let ctx: TestContext;
let tsa: FakeTsa;
let dir: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  tsa = await startFakeTsa();
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-ts-test-'));
  // A deadline short enough for the hanging TSA, long enough for `openssl ts -reply` on a loaded machine.
  ctx = await createTestContext({ demo: true, config: { reportTsaUrl: tsa.url, reportTsaTimeoutMs: 4000, reportTsaRetrySeconds: 1 } });
  for (const username of ['vida.adm', 'aurora.adm']) tokens[username] = (await ctx.login(username)).token;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The byte ranges and /Contents (DER) of each signature of a PDF, in file order. */
function signaturesOf(pdf: Buffer): Array<{ signed: Buffer; contents: Buffer }> {
  return [...pdf.toString('latin1').matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/g)].map((m) => {
    const [a, b, c, d] = m.slice(1, 5).map(Number) as [number, number, number, number];
    return {
      signed: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
      contents: trimDerPadding(Buffer.from(pdf.toString('latin1', b + 1, c - 1), 'hex')),
    };
  });
}

async function generatedPdf(): Promise<{ report: Report; data: Buffer }> {
  const token = tokens['vida.adm']!;
  const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.vaccines}/pdf`, token);
  expect(res.statusCode, res.body).toBe(200);
  const report = await waitForReport(ctx, token, (res.json() as Report)._id, 60_000);
  expect(report.status.id, JSON.stringify(report)).toBe(2);
  return { report, data: await download(report._id) };
}

async function download(id: string): Promise<Buffer> {
  const file = await ctx.request('GET', `/api/report/files/${id}`, tokens['vida.adm']!);
  expect(file.statusCode).toBe(200);
  return file.rawPayload;
}

async function validate(data: Buffer): Promise<ReportValidation> {
  const res = await upload(ctx, '/api/report/validate', [pdfPart(data, 'relatorio.pdf')]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function pdfsigOf(name: string, data: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, data);
  return pdfsig(file);
}

const execFileAsync = promisify(execFile);

async function writeIn(folder: string, name: string, data: Uint8Array): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, data);
  return file;
}

const row = (id: string) => ctx.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the TSA client (RFC 3161 through the outgoing-request guard)', () => {
  it('checks the status, the nonce and the message imprint of every answer', async () => {
    const stamp = tsaTimestamper({ url: tsa.url, timeoutMs: 4000 }, new OutgoingClient({ allowPrivate: false, allowedPorts: [443] }));
    tsa.answer = { kind: 'reply' };
    const { token, info } = await stamp(Buffer.from('dados'));
    expect(info.authority).toBe(tsa.authority);
    expect(info.signatureValid).toBe(true);
    expect(await opensslVerifiesToken(tsa, token, Buffer.from('dados'))).toBe(true);
    expect(await opensslVerifiesToken(tsa, token, Buffer.from('outros dados'))).toBe(false);

    // A real answer to another request: the nonce (and then the imprint) differ, and it is refused.
    const imprint = createHash('sha256').update('dados').digest();
    const answer = await ctx.services.outgoing.request(tsa.url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: timeStampRequest(imprint, Buffer.from('0102030405060708', 'hex')),
      trust: 'operator',
    });
    expect(() => tokenFromResponse(answer.body, { imprint, nonce: Buffer.from('0102030405060708', 'hex') })).not.toThrow();
    expect(() => tokenFromResponse(answer.body, { imprint, nonce: Buffer.from('0102030405060709', 'hex') })).toThrow(/nonce/);
    expect(() => tokenFromResponse(answer.body, { imprint: createHash('sha256').update('x').digest(), nonce: Buffer.from('0102030405060708', 'hex') })).toThrow(/imprint/);
    // A refusal (status 2, "rejection") and bytes that are no answer.
    expect(() => tokenFromResponse(Buffer.from('3005300302010' + '2', 'hex'), { imprint, nonce: Buffer.alloc(8, 1) })).toThrow(/refused/);
    tsa.answer = { kind: 'garbage' };
    await expect(stamp(Buffer.from('dados'))).rejects.toBeInstanceOf(TimestampError);
    tsa.answer = { kind: 'status', status: 500 };
    await expect(stamp(Buffer.from('dados'))).rejects.toThrow(/HTTP 500/);
    tsa.answer = { kind: 'reply' };
  });
});

describe('X12 reports signed with a signature timestamp (PAdES B-T)', () => {
  it('embeds a token over the signature value that openssl verifies, keeps the signature valid, and the validator shows it', async () => {
    tsa.answer = { kind: 'reply' };
    const before = tsa.requests.length;
    const { report, data } = await generatedPdf();
    expect(tsa.requests.length).toBe(before + 1);

    const [signature] = signaturesOf(data);
    const [stamp] = signatureTimestamps(signature!.contents);
    expect(stamp).toBeDefined();
    // The token stamps the SignerInfo's signature value, and chains to the test TSA's root.
    expect(await opensslVerifiesToken(tsa, stamp!.token, stamp!.signatureValue)).toBe(true);
    expect(signatureValidation(await pdfsigOf('b-t.pdf', data))).toBe('Signature is Valid.');

    const stored = await row(report._id);
    expect(stored.timestamp_status).toBe('signature');
    expect(stored.timestamp_authority).toBe(tsa.authority);

    const validation = await validate(data);
    expect(validation.valid).toBe(true);
    expect(validation.timestamp).toMatchObject({ status: 'stamped', kind: 'signature', authority: tsa.authority });
    expect(validation.timestamp!.time).toBe(stored.timestamp_at!.toISOString());
    expect(Math.abs(Date.parse(validation.timestamp!.time!) - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('tells a token that does not stamp this signature from a valid one', async () => {
    const { data } = await generatedPdf();
    // One byte of the signature value changed in the file: the token no longer stamps this signature.
    const [signature] = signaturesOf(data);
    const value = signatureTimestamps(signature!.contents)[0]!.signatureValue;
    const tampered = Buffer.from(data);
    const hexAt = tampered.indexOf(value.toString('hex').slice(0, 32), 0, 'latin1');
    expect(hexAt).toBeGreaterThan(0);
    tampered.write(value[0] === 0 ? '01' : '00', hexAt, 'latin1');
    expect(pdfTimestamps(tampered)).toEqual([expect.objectContaining({ kind: 'signature', valid: false })]);
  });
});

describe('a TSA that fails never loses the report', () => {
  it('answering 500: the report is signed without a timestamp, pending, and the job adds a document timestamp when the TSA is back', async () => {
    tsa.answer = { kind: 'status', status: 500 };
    const { report, data: first } = await generatedPdf();
    expect((await row(report._id)).timestamp_status).toBe('pending');
    expect(signaturesOf(first).flatMap((s) => signatureTimestamps(s.contents))).toEqual([]);
    expect(signatureValidation(await pdfsigOf('pending.pdf', first))).toBe('Signature is Valid.');
    const pending = await validate(first);
    expect(pending.valid).toBe(true);
    expect(pending.timestamp).toEqual({ status: 'pending', kind: null, time: null, authority: null });

    // The TSA comes back: the retry (REPORT_TSA_RETRY_SECONDS, doubling) adds a document timestamp to the stored file.
    tsa.answer = { kind: 'reply' };
    const deadline = Date.now() + 90_000;
    while ((await row(report._id)).timestamp_status !== 'document') {
      if (Date.now() > deadline) throw new Error('no document timestamp was added');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const stored = await row(report._id);
    expect(stored.unstamped_sha256).toBe(createHash('sha256').update(first).digest('hex'));
    const second = await download(report._id);
    expect(createHash('sha256').update(second).digest('hex')).toBe(stored.sha256);
    // An incremental update: the first revision's bytes are untouched.
    expect(second.subarray(0, first.length).equals(first)).toBe(true);

    const [original, documentStamp] = signaturesOf(second);
    expect(await opensslVerifiesToken(tsa, documentStamp!.contents, documentStamp!.signed)).toBe(true);
    expect(original!.signed.equals(signaturesOf(first)[0]!.signed)).toBe(true);
    const report2 = await pdfsigOf('document-timestamp.pdf', second);
    expect(report2).toContain('Signature #2');
    expect(signatureValidation(report2)).toBe('Signature is Valid.');

    const stamped = await validate(second);
    expect(stamped.timestamp).toMatchObject({ status: 'stamped', kind: 'document', authority: tsa.authority, time: stored.timestamp_at!.toISOString() });
    // The copy handed out before is still this report, and the validator says where the timestamp is.
    const earlier = await validate(first);
    expect(earlier.valid).toBe(true);
    expect(earlier.report?._id).toBe(report._id);
    expect(earlier.timestamp).toMatchObject({ status: 'later', kind: 'document', authority: tsa.authority });
  });

  it('a pending report whose job was never queued (a server stopped in between) gets one at start', async () => {
    tsa.answer = { kind: 'reply' };
    const { report } = await generatedPdf();
    // As a process that recorded the report and stopped before queueing its timestamp job would leave it.
    await ctx.db.updateTable('reports').set({ timestamp_status: 'pending', timestamp_at: null, timestamp_authority: null }).where('id', '=', report._id).execute();
    expect(await ctx.services.jobs.hasPending('report-timestamp', report._id)).toBe(false);
    await ctx.services.reports.requeueWaiting();
    const deadline = Date.now() + 90_000;
    while ((await row(report._id)).timestamp_status !== 'document') {
      if (Date.now() > deadline) throw new Error('no document timestamp was added');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await row(report._id)).timestamp_authority).toBe(tsa.authority);
  });

  it('hanging past REPORT_TSA_TIMEOUT_MS: the report is still generated, signed, and marked pending', async () => {
    tsa.answer = { kind: 'hang' };
    const { report, data } = await generatedPdf();
    tsa.answer = { kind: 'reply' };
    expect(signaturesOf(data).flatMap((s) => signatureTimestamps(s.contents))).toEqual([]);
    expect(signatureValidation(await pdfsigOf('hung.pdf', data))).toBe('Signature is Valid.');
    expect(['pending', 'document']).toContain((await row(report._id)).timestamp_status);
  });

  it('an audit trail export PDF carries the signature timestamp too (the one signer of every PDF)', async () => {
    tsa.answer = { kind: 'reply' };
    const res = await ctx.request('GET', '/api/audit-trail/export/pdf', tokens['aurora.adm']!);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const [signature] = signaturesOf(res.rawPayload);
    const [stamp] = signatureTimestamps(signature!.contents);
    expect(await opensslVerifiesToken(tsa, stamp!.token, stamp!.signatureValue)).toBe(true);
    expect(pdfTimestamps(res.rawPayload)).toEqual([expect.objectContaining({ kind: 'signature', valid: true, authority: tsa.authority })]);
  });

  it('an audit trail CSV export: its detached signature carries the timestamp (CAdES-T) and the README names it; garbage from the TSA: unstamped, and said', async () => {
    const exportCsv = async () => {
      const res = await ctx.request('GET', '/api/audit-trail/export/csv', tokens['aurora.adm']!);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const files = unzipSync(new Uint8Array(res.rawPayload));
      const csv = await writeIn(dir, 'trail.csv', files['trilha-de-auditoria.csv']!);
      const p7s = Buffer.from(files['trilha-de-auditoria.csv.p7s']!);
      const signature = await writeIn(dir, 'trail.csv.p7s', p7s);
      // The CSV's signature verifies whether or not it carries a token (unsigned attributes are outside what it signs).
      const verified = await execFileAsync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', signature, '-content', csv, '-noverify', '-out', '/dev/null']);
      expect(verified.stderr).toContain('Verification successful');
      return { stamps: signatureTimestamps(p7s), readme: Buffer.from(files['LEIA-ME.txt']!).toString('utf8') };
    };

    tsa.answer = { kind: 'reply' };
    const stamped = await exportCsv();
    expect(stamped.stamps).toHaveLength(1);
    expect(await opensslVerifiesToken(tsa, stamped.stamps[0]!.token, stamped.stamps[0]!.signatureValue)).toBe(true);
    expect(stamped.readme).toContain(`A assinatura traz um carimbo de tempo RFC 3161 (CAdES-T) de ${tsa.authority}, de `);

    tsa.answer = { kind: 'garbage' };
    const unstamped = await exportCsv();
    tsa.answer = { kind: 'reply' };
    expect(unstamped.stamps).toEqual([]);
    expect(unstamped.readme).toContain('esta assinatura não tem carimbo de tempo. Exporte de novo para obter um.');
    expect(unstamped.readme).not.toContain('RFC 3161 (CAdES-T)');
  });

  it('hanging past REPORT_TSA_TIMEOUT_MS, or answering garbage: an invoice is still handed out, signed, without a timestamp', async () => {
    const token = tokens['aurora.adm']!;
    const invoice = (await ctx.request('GET', '/api/invoices', token)).json<InvoiceListResponse>().data[0]!;
    for (const answer of [{ kind: 'hang' }, { kind: 'garbage' }] as const) {
      tsa.answer = answer;
      const res = await ctx.request('GET', `/api/invoices/${invoice.id}/pdf`, token);
      expect(res.statusCode).toBe(200);
      expect(signatureValidation(await pdfsigOf(`invoice-${answer.kind}.pdf`, res.rawPayload))).toBe('Signature is Valid.');
      expect((await validate(res.rawPayload)).timestamp).toEqual({ status: 'none', kind: null, time: null, authority: null });
    }
    tsa.answer = { kind: 'reply' };
    const res = await ctx.request('GET', `/api/invoices/${invoice.id}/pdf`, token);
    const validation = await validate(res.rawPayload);
    expect(validation.invoice?.number).toBe(invoice.number);
    expect(validation.timestamp).toMatchObject({ status: 'stamped', kind: 'signature', authority: tsa.authority });
  });
});
