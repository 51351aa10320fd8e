import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmNotification, AuditTrailPage, Report } from '@sentinela/contract';
import { stableJson } from '../src/modules/signatures/service';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { multipart, pdfPart, waitForReport } from './report-helpers';
import { MACS, deviceId, userId } from './travel-helpers';

/** X11: electronic signatures (issue 22 point 6, 21 CFR 11.50/11.70/11.200; ADR 0062). */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

async function signIn() {
  for (const username of ['aurora.adm', 'vida.adm', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
}

/** An open alarm of the device, made directly (its opening is ingestion's, tested elsewhere). */
async function openAlarm(mac: string, type = 'temperature_high'): Promise<string> {
  const device = await deviceId(ctx, mac);
  const row = await ctx.db
    .insertInto('alarms')
    .values({ device_id: device, travel_id: null, type, message: 'Temperatura acima do limite máximo (8,00 °C)', started_at: ctx.clock.now(), ended_at: null, temperature_min: 9, temperature_max: 9.5, humidity_min: null, humidity_max: null, acknowledged_at: null, acknowledged_by: null, acknowledge_message: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const acknowledge = (token: string, id: string, body: Record<string, unknown>) => ctx.request('POST', `/api/alarms/${id}/acknowledge`, token, body);

async function trail(query: string) {
  const res = await ctx.request('GET', `/api/audit-trail${query}`, tokens['aurora.adm']);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AuditTrailPage).data;
}

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  await signIn();
  ids.aurora = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  ids.joao = await userId(ctx, 'joao.silva');
});
afterAll(() => ctx.close());

describe('X11 alarm acknowledgement', () => {
  it('X11 outside GxP mode is the documents\' acknowledgement: a message, no signature', async () => {
    const id = await openAlarm(MACS.truck1);
    const res = await acknowledge(tokens['joao.silva']!, id, { message: 'Porta fechada.' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as AlarmNotification).acknowledge).toMatchObject({ message: 'Porta fechada.', signature: null });
  });

  it('X11 in GxP mode is a signature: password and meaning asked, a wrong password refused and counted', async () => {
    expect((await ctx.request('PUT', '/api/enterprise/compliance', tokens['aurora.adm'], { gxp: true })).statusCode).toBe(200);
    const id = await openAlarm(MACS.truck1, 'humidity_high');
    const noPassword = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error).toBe('Informe sua senha para assinar.');
    const noMeaning = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: DEMO_PASSWORD });
    expect(noMeaning.statusCode).toBe(400);
    expect(noMeaning.json().error).toBe('Escolha o significado da assinatura.');
    const badMeaning = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: DEMO_PASSWORD, meaning: 'Assinado' });
    expect(badMeaning.statusCode).toBe(400);
    const wrong = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: 'senha-errada', meaning: 'Revisado' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe('Senha incorreta. A assinatura não foi registrada.');
    const alarm = await ctx.db.selectFrom('alarms').select(['acknowledged_at', 'ack_signature_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(alarm).toEqual({ acknowledged_at: null, ack_signature_id: null });
    expect((await trail(`?entity=user&entity_id=${ids.joao}`)).find((e) => e.action === 'signature_failed')).toMatchObject({ after: { failures: 1 } });

    const signed = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: DEMO_PASSWORD, meaning: 'Revisado' });
    expect(signed.statusCode, signed.body).toBe(200);
    const signature = (signed.json() as AlarmNotification).acknowledge!.signature!;
    expect(signature).toMatchObject({ printed_name: 'João Silva', username: 'joao.silva', meaning: 'Revisado' });
    // Bound to the record: its hash covers signer, meaning, time and the alarm's content hash.
    expect(signature.hash).toBe(
      createHash('sha256').update(stableJson([ids.joao, 'João Silva', 'joao.silva', 'Revisado', signature.signed_at, 'alarm', id, signature.record_hash])).digest('hex'),
    );
    // Shown wherever the alarm is shown: the device's alarm list.
    const list = (await ctx.request('GET', `/api/beacon-device/${MACS.truck1}/notifications`, tokens['aurora.adm'])).json() as AlarmNotification[];
    expect(list.find((a) => a._id === id)!.acknowledge!.signature).toEqual(signature);
    // In the trail: the signature (its hash) and the acknowledgement that points to it, by the signer.
    const entries = await trail(`?entity_id=${id}`);
    expect(entries.find((e) => e.entity === 'electronic_signature')).toMatchObject({ action: 'create', actor: { _id: ids.joao }, after: { hash: signature.hash, meaning: 'Revisado', record_id: id } });
    expect(entries.find((e) => e.entity === 'alarm' && e.action === 'update')).toMatchObject({ after: { acknowledge_message: 'Verificado.', ack_signature_id: signature._id } });
    // Once.
    expect((await acknowledge(tokens['joao.silva']!, id, { message: 'De novo.', password: DEMO_PASSWORD, meaning: 'Revisado' })).statusCode).toBe(409);
  });

  it('X11 three wrong passwords in a row lock signing for 15 minutes and tell the administrator by e-mail', async () => {
    const id = await openAlarm(MACS.truck2);
    const wrong = () => acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: 'errada', meaning: 'Responsável' });
    expect((await wrong()).statusCode).toBe(403);
    expect((await wrong()).statusCode).toBe(403);
    const third = await wrong();
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toMatch(/bloqueada por 15 minutos/);
    const locked = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: DEMO_PASSWORD, meaning: 'Responsável' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatch(/Tente novamente em 15 minutos/);
    expect((await trail(`?entity=user&entity_id=${ids.joao}`)).find((e) => e.action === 'signature_locked')).toBeTruthy();

    const dir = ctx.services.config.mailOutboxDir;
    let notice: ParsedMail | undefined;
    for (let i = 0; i < 300 && !notice; i++) {
      for (const file of (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.eml'))) {
        const mail = await simpleParser(await readFile(path.join(dir, file)));
        if (mail.subject === 'Sentinela: assinatura eletrônica bloqueada') notice = mail;
      }
      if (!notice) await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.stringify(notice?.to)).toContain('aurora.adm@');
    expect(notice?.text).toMatch(/A assinatura eletrônica de “João Silva” \(usuário “joao.silva”\) foi bloqueada até .* após 3 senhas incorretas seguidas/);

    ctx.clock.advance(16 * 60_000);
    await signIn();
    const after = await acknowledge(tokens['joao.silva']!, id, { message: 'Verificado.', password: DEMO_PASSWORD, meaning: 'Responsável' });
    expect(after.statusCode, after.body).toBe(200);
  });

  it('X11 another enterprise cannot acknowledge nor sign Aurora\'s alarm', async () => {
    const id = await openAlarm(MACS.chamber);
    const res = await acknowledge(tokens['vida.adm']!, id, { message: 'Invasão.', password: DEMO_PASSWORD, meaning: 'Aprovado' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Alarme não encontrado.');
  });
});

describe('X11 report approval', () => {
  let report: Report;

  beforeAll(async () => {
    await signIn();
    const to = ctx.clock.now();
    const from = new Date(to.getTime() - 6 * 3_600_000);
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}/pdf?dateInitUtc=${from.toISOString()}&dateEndUtc=${to.toISOString()}`, tokens['aurora.adm']);
    expect(res.statusCode, res.body).toBe(200);
    report = res.json() as Report;
  });

  it('X11 a report is approved with a signature once generated, once; the list shows it', async () => {
    const early = await ctx.request('POST', `/api/reports/${report._id}/approve`, tokens['aurora.adm'], { password: DEMO_PASSWORD, meaning: 'Aprovado' });
    // Either still queued (409) or already generated by the job on a fast machine (200).
    if (early.statusCode === 409) {
      expect(early.json().error).toMatch(/ainda não foi gerado/);
      const done = await waitForReport(ctx, tokens['aurora.adm']!, report._id);
      expect(done.status.id, done.error ?? '').toBe(2);
      const wrong = await ctx.request('POST', `/api/reports/${report._id}/approve`, tokens['aurora.adm'], { password: 'errada', meaning: 'Aprovado' });
      expect(wrong.statusCode).toBe(403);
      const ok = await ctx.request('POST', `/api/reports/${report._id}/approve`, tokens['aurora.adm'], { password: DEMO_PASSWORD, meaning: 'Aprovado' });
      expect(ok.statusCode, ok.body).toBe(200);
    } else {
      expect(early.statusCode, early.body).toBe(200);
    }
    const approved = (await ctx.request('GET', `/api/reports/${report._id}`, tokens['aurora.adm'])).json() as Report;
    expect(approved.approval).toMatchObject({ printed_name: 'Aurora Administração', username: 'aurora.adm', meaning: 'Aprovado' });
    const list = (await ctx.request('GET', '/api/reports', tokens['aurora.adm'])).json() as Report[];
    expect(list.find((r) => r._id === report._id)!.approval).toEqual(approved.approval);
    const again = await ctx.request('POST', `/api/reports/${report._id}/approve`, tokens['aurora.adm'], { password: DEMO_PASSWORD, meaning: 'Aprovado' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Este relatório já foi aprovado.');
    const entries = await trail(`?entity_id=${report._id}`);
    expect(entries.find((e) => e.entity === 'electronic_signature')).toMatchObject({ after: { record_type: 'report', meaning: 'Aprovado', hash: approved.approval!.hash } });
  });

  it('X11 a download is in the trail; another enterprise neither approves nor sees the report', async () => {
    const file = await ctx.request('GET', `/api/report/files/${report._id}`, tokens['aurora.adm']);
    expect(file.statusCode).toBe(200);
    // The signed file cannot change; the validator tells its approval, for anyone holding the file.
    const form = multipart([pdfPart(file.rawPayload)]);
    const validated = await ctx.app.inject({ method: 'POST', url: '/api/report/validate', headers: { 'content-type': form.contentType }, payload: form.payload });
    expect(validated.json()).toMatchObject({ valid: true, approval: { username: 'aurora.adm', meaning: 'Aprovado' } });
    expect((await trail(`?entity=report&entity_id=${report._id}`)).find((e) => e.action === 'download')).toMatchObject({ actor: { username: 'aurora.adm' }, after: { type: 'pdf' } });
    const foreign = await ctx.request('POST', `/api/reports/${report._id}/approve`, tokens['vida.adm'], { password: DEMO_PASSWORD, meaning: 'Aprovado' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Relatório não encontrado.');
  });
});
