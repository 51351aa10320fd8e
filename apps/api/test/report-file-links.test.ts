import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES, type Report } from '@sentinela/contract';
import { CLIENT_VERSION } from '@sentinela/contract';
import { parse as parseDisposition } from 'content-disposition';
import { REPORT_LINK_PATTERN } from '../src/modules/reports/file-links';
import { createTestContext, type TestContext } from './context';
import { waitForReport } from './report-helpers';
import { CODES, MACS, travelId } from './travel-helpers';

/**
 * Report files without a session (issue 26; ADR 0070): the documents' client navigates to
 * /api/report/files/{_id} right after the export call, and the list's download_url opens the file as a link.
 */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const hours = (n: number) => n * 3600_000;
/** What Chromium sends when a window navigates to an address. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' };

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['admin', 'aurora.adm', 'joao.silva', 'vida.adm', 'maria.souza']) tokens[username] = (await ctx.login(username)).token;
});
afterAll(() => ctx.close());

/** The file name a Content-Disposition gives (the package writes it quoted or as a bare token). */
const filenameOf = (header: unknown) => {
  const parsed = parseDisposition(String(header));
  expect(parsed.type).toBe('attachment');
  return parsed.parameters.filename;
};

/** A request with no session at all, as a browser window or a plain HTTP client makes it. */
function anonymous(url: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'GET', url, headers: { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux', ...headers } });
}

async function exported(token: string, url: string): Promise<Report> {
  const res = await ctx.request('GET', url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
}

/** A report recorded as queued, without a job: it stays "being generated" for as long as the test needs. */
async function queuedReport(mac: string, username: string): Promise<string> {
  const device = await ctx.db.selectFrom('devices').select(['id', 'enterprise_id']).where('mac', '=', mac).executeTakeFirstOrThrow();
  const user = await ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('reports')
    .values({
      enterprise_id: device.enterprise_id, user_id: user.id, device_id: device.id, travel_id: null, kind: 'device-history', type: 'pdf',
      filters: JSON.stringify({ dateInit: new Date(now.getTime() - hours(1)).toISOString(), dateEnd: now.toISOString() }),
      created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('the documents\' flow: export, then navigate to /api/report/files/{_id} with no Authorization', () => {
  it('gets a pt-BR page that waits while the file is generated, then the file itself', async () => {
    const id = await queuedReport(MACS.vaccines, 'vida.adm');
    const waiting = await anonymous(`/api/report/files/${id}`, BROWSER);
    expect(waiting.statusCode).toBe(202);
    expect(waiting.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(waiting.body).toContain('<html lang="pt-BR">');
    expect(waiting.body).toContain('O relatório está sendo gerado...');
    expect(waiting.body).toContain('Histórico do dispositivo — Geladeira Vacinas');
    // Its one script is allowed by its hash and nothing else runs.
    const csp = String(waiting.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("default-src 'none'");
    // What the page polls, with the same access.
    const status = await anonymous(`/api/report/files/${id}/status`, { accept: 'application/json' });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({ status: { id: 1, name: 'Em processamento', color: 'yellow' }, error: null });
    // An API client is told in JSON, as before.
    const api = await anonymous(`/api/report/files/${id}`, { accept: 'application/json' });
    expect(api.statusCode).toBe(409);
    expect(api.json().error).toBe(REPORT_MESSAGES.stillGenerating);

    await ctx.services.reports.generate(id);
    expect((await anonymous(`/api/report/files/${id}/status`)).json().status.id).toBe(2);
    const file = await anonymous(`/api/report/files/${id}`, BROWSER);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(filenameOf(file.headers['content-disposition'])).toMatch(/^Geladeira-Vacinas_\d{4}-\d{2}-\d{2}_(\d{2}h\d{2}-\d{2}h\d{2}|\d{4}-\d{2}-\d{2})\.pdf$/);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('works the same for the travel report at /api/travel-report/files/{_id}, right after GET /api/travels/{id}/html', async () => {
    const report = await exported(tokens['aurora.adm']!, `/api/travels/${await travelId(ctx, CODES.auroraFinished)}/html`);
    const first = await anonymous(`/api/travel-report/files/${report._id}`, BROWSER);
    // Queued or already generated, depending on how fast the worker was: a page that waits, or the file.
    expect([200, 202]).toContain(first.statusCode);
    await waitForReport(ctx, tokens['aurora.adm']!, report._id);
    const file = await anonymous(`/api/travel-report/files/${report._id}`, BROWSER);
    expect(file.statusCode).toBe(200);
    expect(filenameOf(file.headers['content-disposition'])).toMatch(new RegExp(`^Viagem-${CODES.auroraFinished}_`));
    // Only from its own path.
    expect((await anonymous(`/api/report/files/${report._id}`, BROWSER)).statusCode).toBe(404);
  });

  it('stops opening by the bare id REPORT_LINK_MINUTES after the file was made; a session still opens it', async () => {
    const report = await exported(tokens['maria.souza']!, `/api/beacon-device/history/mac/${MACS.box1}/pdf`);
    await waitForReport(ctx, tokens['maria.souza']!, report._id);
    const before = ctx.clock.now();
    ctx.clock.advance(59 * 60_000);
    expect((await anonymous(`/api/report/files/${report._id}`)).statusCode).toBe(200);
    ctx.clock.advance(2 * 60_000);
    try {
      const page = await anonymous(`/api/report/files/${report._id}`, BROWSER);
      expect(page.statusCode).toBe(401);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('Este link de download não vale mais sem login.');
      expect((await anonymous(`/api/report/files/${report._id}/status`)).statusCode).toBe(401);
      const maria = (await ctx.login('maria.souza')).token;
      expect((await ctx.request('GET', `/api/report/files/${report._id}`, maria)).statusCode).toBe(200);
    } finally {
      ctx.clock.set(before);
    }
  });

  it('a failed report says why on the page', async () => {
    const id = await queuedReport(MACS.box2, 'maria.souza');
    await ctx.services.reports.recordFailure(id, new Error('boom'));
    const page = await anonymous(`/api/report/files/${id}`, BROWSER);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Não foi possível gerar o relatório');
    expect((await anonymous(`/api/report/files/${id}/status`)).json().status.id).toBe(3);
  });
});

describe('download_url: a link that opens the file without a session until it expires', () => {
  let report: Report;
  beforeAll(async () => {
    const queued = await exported(tokens['joao.silva']!, `/api/beacon-device/history/mac/${MACS.truck1}/excel`);
    report = await waitForReport(ctx, tokens['joao.silva']!, queued._id);
    expect(report.status.id, report.error ?? '').toBe(2);
  });

  it('opens the file as a plain link, named by device, period and type, and is recognisable for redaction', async () => {
    const url = report.download_url!;
    expect(url.match(REPORT_LINK_PATTERN)).toHaveLength(1);
    const res = await anonymous(url, BROWSER);
    expect(res.statusCode).toBe(200);
    expect(filenameOf(res.headers['content-disposition'])).toBe(report.file_name);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(report.file_name).toMatch(/^Bau-Caminhao-01_\d{4}-\d{2}-\d{2}_(\d{2}h\d{2}-\d{2}h\d{2}|\d{4}-\d{2}-\d{2})\.xlsx$/);
    // The list gives the same kind of link.
    const listed = ((await ctx.request('GET', '/api/reports', tokens['joao.silva'])).json() as Report[]).find((r) => r._id === report._id)!;
    expect((await anonymous(listed.download_url!)).statusCode).toBe(200);
  });

  it('opens only its own report: another id, a changed signature or expiry, the other path: 404', async () => {
    const [, , , , id, link, name] = report.download_url!.split('/');
    const other = await exported(tokens['vida.adm']!, `/api/beacon-device/history/mac/${MACS.vaccines}/pdf`);
    await waitForReport(ctx, tokens['vida.adm']!, other._id);
    const [, seconds, signature] = /^sdl_(\d+)_(.+)$/.exec(link!)!;
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`;
    for (const url of [
      `/api/report/files/${other._id}/${link}/${name}`,
      `/api/report/files/${id}/sdl_${seconds}_${flipped}/${name}`,
      `/api/report/files/${id}/sdl_${Number(seconds) + 3600}_${signature}/${name}`,
      `/api/report/files/${id}/qualquer-coisa/${name}`,
      `/api/travel-report/files/${id}/${link}/${name}`,
    ]) {
      const res = await anonymous(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('Relatório não encontrado.');
    }
    // Another enterprise's session does not make a foreign link valid either.
    expect((await ctx.request('GET', `/api/report/files/${other._id}/${link}/${name}`, tokens['joao.silva'])).statusCode).toBe(404);
  });

  it('expires after REPORT_LINK_MINUTES (410, in words for a browser); a session that may see the report still downloads', async () => {
    const url = report.download_url!;
    const before = ctx.clock.now();
    ctx.clock.advance(61 * 60_000);
    try {
      const expired = await anonymous(url);
      expect(expired.statusCode).toBe(410);
      expect(expired.json().error).toBe('Este link de download expirou. Entre no Sentinela e baixe o relatório na tela Relatórios.');
      const page = await anonymous(url, BROWSER);
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain('Este link de download expirou.');
      const joao = (await ctx.login('joao.silva')).token;
      expect((await ctx.request('GET', url, joao)).statusCode).toBe(200);
      const vida = (await ctx.login('vida.adm')).token;
      expect((await ctx.request('GET', url, vida)).statusCode).toBe(410);
    } finally {
      ctx.clock.set(before);
    }
  });

  it('dies with its enterprise: a deactivated enterprise\'s links open nothing', async () => {
    const report = await exported(tokens['vida.adm']!, `/api/beacon-device/history/mac/${MACS.vaccines}/excel`);
    const done = await waitForReport(ctx, tokens['vida.adm']!, report._id);
    const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow();
    await ctx.db.updateTable('enterprises').set({ disabled: true }).where('id', '=', enterprise.id).execute();
    try {
      expect((await anonymous(done.download_url!)).statusCode).toBe(404);
      expect((await anonymous(`/api/report/files/${report._id}`)).statusCode).toBe(404);
    } finally {
      await ctx.db.updateTable('enterprises').set({ disabled: false }).where('id', '=', enterprise.id).execute();
    }
  });
});
