import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { sql } from 'kysely';
import { AUDIT_TRAIL_MESSAGES } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCount, pdfsig, pdftotext, signatureValidation } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { MACS, deviceId } from './travel-helpers';

/**
 * X11, issue 22 point 4 (ADR 0063): signed exports of a filtered audit trail — a PDF signed like the reports (pdfsig
 * checks it), a ZIP of the CSV and its detached CMS signature (openssl checks it, and refuses an edited CSV) — with the
 * screen's filters and scope, each export itself an entry of the trail, and the tenant walls.
 */
const run = promisify(execFile);
let ctx: TestContext;
let dir: string;
const tokens = {} as Record<'admin' | 'aurora' | 'joao' | 'vida', string>;
const ids = {} as Record<'aurora' | 'chamber', string>;
const REASON = '=HYPERLINK("http://x") ajuste do limite após validação';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-audit-export-'));
  ctx = await createTestContext({ demo: true });
  for (const [key, username] of [['admin', 'admin'], ['aurora', 'aurora.adm'], ['joao', 'joao.silva'], ['vida', 'vida.adm']] as const) tokens[key] = (await ctx.login(username)).token;
  ids.aurora = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  ids.chamber = await deviceId(ctx, MACS.chamber);
  expect((await ctx.request('PUT', '/api/enterprise/compliance', tokens.aurora, { gxp: true })).statusCode).toBe(200);
  // A reason that a spreadsheet would run as a formula: the CSV must keep it as text.
  const change = await ctx.request('PUT', `/api/devices/${ids.chamber}`, tokens.aurora, { config: { temperature: { min: -23, max: -16 } }, reason: REASON });
  expect(change.statusCode, change.body).toBe(200);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const exportOf = (format: string, query: string, token = tokens.aurora) => ctx.request('GET', `/api/audit-trail/export/${format}${query}`, token);

async function onDisk(name: string, data: Buffer | Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

/** The trail's entries of exports, newest first. */
async function exportEntries() {
  return ctx.db.selectFrom('audit_trail').select(['chain', 'seq', 'actor_name', 'after']).where('action', '=', 'export').orderBy('at', 'desc').execute();
}

describe('X11 audit trail export: signed PDF', () => {
  it('X11 the device\'s filtered trail as a PDF signed like the reports, with the change, its reason and the verification', async () => {
    const res = await exportOf('pdf', `?entity_id=${ids.chamber}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="trilha-de-auditoria-\d{8}\.pdf"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const file = await onDisk('trail.pdf', res.rawPayload);
    expect(signatureValidation(await pdfsig(file))).toBe('Signature is Valid.');
    const text = (await pdftotext(file, 1, await pageCount(file))).replace(/\s+/g, ' ');
    for (const expected of ['Trilha de auditoria', 'Aurora Alimentos', `Registro: ${ids.chamber}`, 'Temperatura mínima: -22 -> -23', `Motivo: ${REASON}`, 'Íntegra:', 'Aurora Administração (aurora.adm)']) {
      expect(text).toContain(expected);
    }
    // The export is in the trail: the SHA-256 of the very bytes handed out, the filters, the count, who.
    const [entry] = await exportEntries();
    expect(entry).toMatchObject({ chain: ids.aurora, actor_name: 'Aurora Administração' });
    expect(entry!.after).toMatchObject({ format: 'pdf', filters: { entity_id: ids.chamber }, sha256: createHash('sha256').update(res.rawPayload).digest('hex'), file_size: res.rawPayload.length, verified: true });
    expect((entry!.after as { entries: number }).entries).toBeGreaterThan(0);
  });
});

describe('X11 audit trail export: signed CSV', () => {
  it('X11 a ZIP of the CSV (formulas kept as text) and its detached CMS signature, which openssl checks and an edit breaks', async () => {
    const res = await exportOf('csv', `?entity_id=${ids.chamber}&entity=device`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="trilha-de-auditoria-\d{8}\.zip"$/);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(['LEIA-ME.txt', 'trilha-de-auditoria.csv', 'trilha-de-auditoria.csv.p7s']);
    const csv = Buffer.from(files['trilha-de-auditoria.csv']!);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('cadeia;sequencia;data_hora_utc;data_hora_local;empresa;tipo_autor;autor;usuario_autor;acao;registro;id_registro;antes;depois;motivo;endereco_cliente;cliente;versao_cliente;sistema_cliente;user_agent;hash_anterior;hash');
    const change = lines.find((l) => l.includes('ajuste do limite'))!;
    // The reason starts with "=": prefixed with ' (and quoted: it holds a quote), so a spreadsheet shows it and runs nothing.
    expect(change).toContain(`;"'=HYPERLINK(""http://x"") ajuste do limite após validação";`);
    expect(change).toContain(';Alteração;Dispositivo;');
    expect(change).toContain('"{""temperature_min"":-22');
    // Every row is of the filtered device (entity filter): one entry per line, nothing of another enterprise.
    expect(lines.filter((l) => l && !l.startsWith('cadeia')).every((l) => l.startsWith(`${ids.aurora};`) && l.includes(';Dispositivo;'))).toBe(true);

    const csvFile = await onDisk('trail.csv', csv);
    const signature = await onDisk('trail.csv.p7s', files['trilha-de-auditoria.csv.p7s']!);
    const verify = (content: string) => run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', signature, '-content', content, '-noverify', '-out', '/dev/null']);
    const ok = await verify(csvFile);
    expect(ok.stderr).toContain('Verification successful');
    const edited = await onDisk('edited.csv', Buffer.from(csv.toString('utf8').replace('ajuste do limite', 'ajuste do limitE')));
    await expect(verify(edited)).rejects.toThrow(/Verification failure|digest failure/i);
    const readme = Buffer.from(files['LEIA-ME.txt']!).toString('utf8');
    expect(readme).toContain('openssl cms -verify -binary -inform DER');
    // No TSA set (REPORT_TSA_URL empty): the README says nothing of a timestamp.
    expect(readme).not.toContain('carimbo');

    const [entry] = await exportEntries();
    expect(entry!.after).toMatchObject({ format: 'csv', filters: { entity: 'device', entity_id: ids.chamber }, sha256: createHash('sha256').update(res.rawPayload).digest('hex') });
  });
});

describe('X11 audit trail export: who may, and bounds', () => {
  it('X11 another enterprise cannot export Aurora\'s trail; users who are not administrators and anonymous callers neither', async () => {
    const foreign = await exportOf('pdf', `?enterprise_id=${ids.aurora}`, tokens.vida);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(AUDIT_TRAIL_MESSAGES.enterpriseNotFound);
    // Vida's own export holds nothing of Aurora's, even filtered by Aurora's device.
    const own = await exportOf('csv', `?entity_id=${ids.chamber}`, tokens.vida);
    expect(own.statusCode).toBe(200);
    const csv = Buffer.from(unzipSync(new Uint8Array(own.rawPayload))['trilha-de-auditoria.csv']!).subarray(3).toString('utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(1);
    expect((await exportOf('pdf', '', tokens.joao)).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/audit-trail/export/pdf')).statusCode).toBe(401);
  });

  it('X11 the super admin exports one enterprise\'s chain; a bad format or filter is refused in pt-BR', async () => {
    const res = await exportOf('csv', `?enterprise_id=${ids.aurora}&entity_id=${ids.chamber}`, tokens.admin);
    expect(res.statusCode).toBe(200);
    const bad = await exportOf('xlsx', '', tokens.admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Formato de exportação inválido');
    const badFilter = await exportOf('pdf', '?entity=DROP%20TABLE', tokens.admin);
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().error).toContain('Tipo de registro inválido.');
  });

  it('X11 more than 5 000 entries: 422 asking to narrow the filters, nothing exported', async () => {
    await sql`SELECT audit_record(${ids.aurora}::uuid, 'sign_in_failed', 'user', NULL, ARRAY[]::text[], NULL, '{"outcome":"wrong_password"}'::jsonb)
              FROM generate_series(1, 5001)`.execute(ctx.db);
    const before = (await exportEntries()).length;
    const res = await exportOf('pdf', '?entity=user');
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe(AUDIT_TRAIL_MESSAGES.exportTooLarge);
    expect((await exportEntries()).length).toBe(before);
    // The trail still verifies after it all.
    expect((await ctx.request('GET', '/api/audit-trail/verify', tokens.aurora)).json()).toMatchObject({ ok: true });
  });
});
