import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALIBRATION_MESSAGES as M, CLIENT_VERSION, formatCalendarDate, type Calibration, type CalibrationDue, type Device, type Report } from '@sentinela/contract';
import { addDays, localDay } from '../src/lib/time-zone';
import { pdftotext } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { foreignPdf, waitForReport } from './report-helpers';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';
import { travelId } from './travel-helpers';

/**
 * X12 calibration certificates per sensor (issue 24 point 1, ADR 0077): a PDF checked by its content, at most 10 MB,
 * for the device enterprise's administrators and the super admin; the due list, the once-only notices on a manual
 * clock, and the certificate line of every device and travel report.
 */
const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, in travel AUR7K2M9QX
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, in the finished travel AUR9P5D2LC
const COLD_ROOM = 'C3:00:00:00:01:03'; // Aurora
const FREEZER = 'C3:00:00:00:01:04'; // Aurora, never calibrated
const AURORA_ADMIN_EMAIL = 'aurora.adm@aurora.example';
const DAY = 86_400_000;

let ctx: TestContext;
let smtp: TestSmtpServer;
let dir: string;
let pdf: Buffer;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

/** Moves the clock, then signs everyone in again (sessions expire with the days). */
async function advanceDays(days: number) {
  ctx.clock.advance(days * DAY);
  for (const username of Object.keys(tokens)) tokens[username] = (await ctx.login(username)).token;
}

const today = () => localDay(ctx.clock.now(), 'America/Sao_Paulo');
const filesIn = () => readdirSync(ctx.services.config.calibrationsDir).sort();
const rowCount = async () => Number((await ctx.db.selectFrom('calibrations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer };

/** The add-certificate form as the browser sends it: fields first, then the file. */
function postCertificate(token: string | undefined, deviceId: string, parts: Part[], options: { stream?: boolean } = {}) {
  const boundary = `----calibration-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'value' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/pdf\r\n\r\n`;
    chunks.push(Buffer.from(head), 'value' in part ? Buffer.from(part.value) : part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/devices/${deviceId}/calibrations`,
    headers: {
      client: 'web',
      clientversion: CLIENT_VERSION,
      clientos: 'linux',
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    // A stream has no declared length: the server must cut it off at the limit as it arrives.
    payload: options.stream ? Readable.from([payload.subarray(0, 100), payload.subarray(100)]) : payload,
  });
}

function fields(values: { calibrated_at: string; due_at: string; laboratory?: string; certificate_number: string; points?: string }): Part[] {
  const parts: Part[] = [
    { name: 'calibrated_at', value: values.calibrated_at },
    { name: 'due_at', value: values.due_at },
    { name: 'laboratory', value: values.laboratory ?? 'Laboratório Metrológico Paulista (RBC)' },
    { name: 'certificate_number', value: values.certificate_number },
  ];
  if (values.points !== undefined) parts.push({ name: 'points', value: values.points });
  return parts;
}
const certificate = (data: Buffer, filename = 'certificado.pdf'): Part => ({ name: 'certificate', filename, data });

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url, loginMaxPerMinute: 100 } });
  dir = mkdtempSync(path.join(tmpdir(), 'calibration-reports-'));
  pdf = await foreignPdf();
  for (const username of ['admin', 'aurora.adm', 'vida.adm', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
  for (const mac of [TRUCK_1, TRUCK_2, COLD_ROOM, FREEZER]) {
    ids[mac] = (await ctx.db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirstOrThrow()).id;
  }
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('X12 who may see and add certificates', () => {
  it('a user gets 403, a visitor 401, another enterprise the pt-BR 404; nothing is stored', async () => {
    const form = [...fields({ calibrated_at: today(), due_at: addDays(today(), 365), certificate_number: 'X-1' }), certificate(pdf)];
    expect((await postCertificate(tokens['joao.silva'], ids[TRUCK_1]!, form)).statusCode).toBe(403);
    expect((await postCertificate(undefined, ids[TRUCK_1]!, form)).statusCode).toBe(401);
    const foreign = await postCertificate(tokens['vida.adm'], ids[TRUCK_1]!, form);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Dispositivo não encontrado.');
    const list = await ctx.request('GET', `/api/devices/${ids[TRUCK_1]}/calibrations`, tokens['vida.adm']);
    expect(list.statusCode).toBe(404);
    expect(list.json().error).toBe('Dispositivo não encontrado.');
    expect((await ctx.request('GET', `/api/devices/${ids[TRUCK_1]}/calibrations`, tokens['joao.silva'])).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/calibrations/due')).statusCode).toBe(401);
    expect(await rowCount()).toBe(0);
    expect(filesIn()).toEqual([]);
  });
});

describe('X12 adding a certificate', () => {
  it('takes a PDF with its dates, laboratory, number and points; lists it; gives back the same bytes; audits it', async () => {
    const points = JSON.stringify([
      { quantity: 'temperature', reference: -20, measured: -19.8, uncertainty: 0.1 },
      { reference: 5, measured: 5.1 },
    ]);
    const res = await postCertificate(tokens['aurora.adm'], ids[TRUCK_1]!, [
      ...fields({ calibrated_at: addDays(today(), -10), due_at: addDays(today(), 355), certificate_number: 'RBC-0421/2026', points }),
      certificate(pdf, 'C:\\Laudos\\certificado 0421.pdf'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const added = res.json() as Calibration;
    expect(added).toMatchObject({
      device_id: ids[TRUCK_1],
      calibrated_at: addDays(today(), -10),
      due_at: addDays(today(), 355),
      laboratory: 'Laboratório Metrológico Paulista (RBC)',
      certificate_number: 'RBC-0421/2026',
      points: [
        { quantity: 'temperature', reference: -20, measured: -19.8, uncertainty: 0.1 },
        { quantity: 'temperature', reference: 5, measured: 5.1 },
      ],
      file_name: 'certificado 0421.pdf',
      file_size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      current: true,
      status: 'valid',
      created_by: { name: 'Aurora Administração' },
    });
    ids.truckCertificate = added._id;
    expect(filesIn()).toEqual([`${added._id}.pdf`]);

    const list = (await ctx.request('GET', `/api/devices/${ids[TRUCK_1]}/calibrations`, tokens['aurora.adm'])).json() as Calibration[];
    expect(list).toEqual([added]);
    // The super admin sees every enterprise's.
    expect((await ctx.request('GET', `/api/devices/${ids[TRUCK_1]}/calibrations`, tokens.admin)).json()).toEqual([added]);

    const file = await ctx.request('GET', `/api/calibrations/${added._id}/certificate`, tokens['aurora.adm']);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-sha256']).toBe(added.sha256);
    expect(file.headers['content-disposition']).toContain('attachment; filename=');

    // Another enterprise's administrator: the pt-BR 404, not the file.
    const foreign = await ctx.request('GET', `/api/calibrations/${added._id}/certificate`, tokens['vida.adm']);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(M.notFound);

    // The trail has the certificate's creation (row trigger) and its download, in Aurora's chain.
    const entries = await ctx.db.selectFrom('audit_trail').select(['action', 'entity', 'entity_id', 'after', 'subject_ids']).where('entity', '=', 'calibration').orderBy('seq').execute();
    expect(entries.map((e) => e.action)).toEqual(['create', 'download']);
    expect(entries[0]!.entity_id).toBe(added._id);
    expect(entries[0]!.subject_ids).toContain(ids[TRUCK_1]);
    expect(entries[0]!.after).toMatchObject({ certificate_number: 'RBC-0421/2026', sha256: added.sha256 });
  });

  it('checks the PDF by its content: a renamed text file or a broken PDF is a 400, and nothing stays', async () => {
    const before = { rows: await rowCount(), files: filesIn() };
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('Certificado de calibração nº 12 — não sou um PDF'), 'certificado.pdf'],
      [Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]), 'quebrado.pdf'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.alloc(500)]), 'foto.pdf'],
    ];
    for (const [data, name] of cases) {
      const res = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, [...fields({ calibrated_at: today(), due_at: addDays(today(), 30), certificate_number: `N-${name}` }), certificate(data, name)]);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error).toBe(M.notPdf);
    }
    const empty = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, [...fields({ calibrated_at: today(), due_at: addDays(today(), 30), certificate_number: 'E-1' }), certificate(Buffer.alloc(0))]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(M.fileEmpty);
    const none = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, fields({ calibrated_at: today(), due_at: addDays(today(), 30), certificate_number: 'E-2' }));
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe(M.fileRequired);
    expect({ rows: await rowCount(), files: filesIn() }).toEqual(before);
  });

  it('refuses over 10 MB with a 413, declared or streamed, and keeps nothing', async () => {
    const before = { rows: await rowCount(), files: filesIn() };
    const huge = Buffer.concat([pdf, Buffer.alloc(10 * 1024 * 1024 + 1 - pdf.length, 0x20)]);
    for (const stream of [false, true]) {
      const res = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, [...fields({ calibrated_at: today(), due_at: addDays(today(), 30), certificate_number: 'BIG' }), certificate(huge)], { stream });
      expect(res.statusCode, `stream ${stream}`).toBe(413);
      expect(res.json().error).toBe(M.fileTooLarge(10 * 1024 * 1024));
    }
    expect({ rows: await rowCount(), files: filesIn() }).toEqual(before);
  });

  it('answers bad fields in pt-BR with a 400: dates, order, future, points, text', async () => {
    const bad: Array<[Parameters<typeof fields>[0], string]> = [
      [{ calibrated_at: '2026-02-30', due_at: '2027-01-01', certificate_number: 'A' }, M.dateFormat('Data da calibração')],
      [{ calibrated_at: '01/02/2026', due_at: '2027-01-01', certificate_number: 'A' }, M.dateFormat('Data da calibração')],
      [{ calibrated_at: addDays(today(), -5), due_at: addDays(today(), -5), certificate_number: 'A' }, M.dueBeforeCalibration],
      [{ calibrated_at: addDays(today(), 5), due_at: addDays(today(), 400), certificate_number: 'A' }, M.calibratedInFuture],
      [{ calibrated_at: addDays(today(), -5), due_at: addDays(today(), 4000), certificate_number: 'A' }, M.validityTooLong],
      [{ calibrated_at: addDays(today(), -5), due_at: addDays(today(), 40), certificate_number: 'A', points: '[{"reference": "x"' }, M.pointsFormat],
      [{ calibrated_at: addDays(today(), -5), due_at: addDays(today(), 40), certificate_number: 'A', points: '[{"reference": 1e308, "measured": 1}]' }, 'Valor de referência fora da faixa (-100 a 200).'],
      [{ calibrated_at: addDays(today(), -5), due_at: addDays(today(), 40), certificate_number: 'A', laboratory: 'Lab\u0000oculto' }, 'O laboratório contém caracteres inválidos.'],
    ];
    const before = { rows: await rowCount(), files: filesIn() };
    for (const [values, message] of bad) {
      const res = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, [...fields(values), certificate(pdf)]);
      expect(res.statusCode, JSON.stringify(values)).toBe(400);
      expect(res.json().error, JSON.stringify(values)).toBe(message);
    }
    expect({ rows: await rowCount(), files: filesIn() }).toEqual(before);
  });

  it('the same certificate twice for a device is a 409', async () => {
    const res = await postCertificate(tokens['aurora.adm'], ids[TRUCK_1]!, [
      ...fields({ calibrated_at: addDays(today(), -10), due_at: addDays(today(), 355), certificate_number: 'RBC-0421/2026' }),
      certificate(pdf),
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(M.duplicate);
  });
});

describe('X12 due certificates: the list, the device flag, the notices once', () => {
  it('lists a certificate due within 30 days, flags the device, and announces it once to the admins by e-mail', async () => {
    expect((await ctx.request('POST', '/api/me/config/notification-channel', tokens['aurora.adm'], { channel: 'email' })).statusCode).toBe(200);
    const dueAt = addDays(today(), 20);
    const res = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, [
      ...fields({ calibrated_at: addDays(today(), -345), due_at: dueAt, certificate_number: 'CF-77', laboratory: 'Termolab' }),
      certificate(pdf),
    ]);
    expect(res.statusCode, res.body).toBe(201);

    const due = (await ctx.request('GET', '/api/calibrations/due', tokens['aurora.adm'])).json() as CalibrationDue[];
    expect(due).toEqual([
      {
        device: { _id: ids[COLD_ROOM], name: 'Câmara Fria Matriz', mac: COLD_ROOM, enterprise: { _id: expect.any(String), name: 'Aurora Alimentos' } },
        calibration: { _id: res.json()._id, certificate_number: 'CF-77', laboratory: 'Termolab', calibrated_at: addDays(today(), -345), due_at: dueAt },
        status: 'due',
        days: 20,
      },
    ]);
    // Another enterprise sees none of Aurora's; the super admin sees it.
    expect((await ctx.request('GET', '/api/calibrations/due', tokens['vida.adm'])).json()).toEqual([]);
    expect(((await ctx.request('GET', '/api/calibrations/due', tokens.admin)).json() as CalibrationDue[]).map((d) => d.device.mac)).toEqual([COLD_ROOM]);

    // The device screens read the due date with the device.
    const devices = (await ctx.request('GET', '/api/beacon-device/all', tokens['aurora.adm'])).json() as Device[];
    expect(devices.find((d) => d.mac === COLD_ROOM)?.calibration_due_at).toBe(dueAt);
    expect(devices.find((d) => d.mac === FREEZER)?.calibration_due_at).toBeNull();

    expect(await ctx.services.calibrationNotices.sweep()).toBe(1);
    const mail = await smtp.waitForMail(AURORA_ADMIN_EMAIL, `Calibração vence em ${formatCalendarDate(dueAt)}: “Câmara Fria Matriz”`);
    expect(mail.text).toContain(`O certificado de calibração do dispositivo “Câmara Fria Matriz” (${COLD_ROOM}) vence em ${formatCalendarDate(dueAt)}.`);
    expect(mail.text).toContain('Certificado “CF-77”, laboratório “Termolab”.');
    // Once: a second look, the next day too, sends nothing more.
    expect(await ctx.services.calibrationNotices.sweep()).toBe(0);
    await advanceDays(1);
    expect(await ctx.services.calibrationNotices.sweep()).toBe(0);
  });

  it('once overdue: listed as such, and announced once more, as "vencida"', async () => {
    await advanceDays(20);
    const [entry] = (await ctx.request('GET', '/api/calibrations/due', tokens['aurora.adm'])).json() as CalibrationDue[];
    expect(entry).toMatchObject({ status: 'overdue', days: -1, device: { mac: COLD_ROOM } });
    expect(await ctx.services.calibrationNotices.sweep()).toBe(1);
    const mail = await smtp.waitForMail(AURORA_ADMIN_EMAIL, 'Calibração vencida: “Câmara Fria Matriz”');
    expect(mail.text).toContain('venceu em');
    expect(await ctx.services.calibrationNotices.sweep()).toBe(0);
    // Recorded as sent once the relay took it (the job writes that just after the SMTP answer).
    const notices = () => ctx.db.selectFrom('calibration_notices').select(['state', 'channel', 'status']).orderBy('created_at').execute();
    await expect.poll(notices, { timeout: 20_000 }).toEqual([
      { state: 'due', channel: 'email', status: 'sent' },
      { state: 'overdue', channel: 'email', status: 'sent' },
    ]);
    // A new certificate takes over: the device leaves the list.
    const renewed = await postCertificate(tokens['aurora.adm'], ids[COLD_ROOM]!, [
      ...fields({ calibrated_at: today(), due_at: addDays(today(), 365), certificate_number: 'CF-78', laboratory: 'Termolab' }),
      certificate(pdf),
    ]);
    expect(renewed.statusCode).toBe(201);
    expect((await ctx.request('GET', '/api/calibrations/due', tokens['aurora.adm'])).json()).toEqual([]);
    const list = (await ctx.request('GET', `/api/devices/${ids[COLD_ROOM]}/calibrations`, tokens['aurora.adm'])).json() as Calibration[];
    expect(list.map((c) => [c.certificate_number, c.current, c.status])).toEqual([
      ['CF-78', true, 'valid'],
      ['CF-77', false, 'overdue'],
    ]);
  });
});

describe('X12 the certificate line of reports', () => {
  async function reportText(url: string, name: string, pages: [number, number] = [1, 1]): Promise<string> {
    const res = await ctx.request('GET', url, tokens['aurora.adm']);
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForReport(ctx, tokens['aurora.adm']!, (res.json() as Report)._id, 150_000);
    expect(done.status.id, done.error ?? '').toBe(2);
    const file = path.join(dir, name);
    writeFileSync(file, (await ctx.request('GET', done.download_url!, tokens['aurora.adm'])).rawPayload);
    return (await pdftotext(file, pages[0], pages[1])).replace(/\s+/g, ' ');
  }
  const period = () => {
    const to = ctx.clock.now().getTime();
    return `dateInitUtc=${new Date(to - 30 * DAY).toISOString()}&dateEndUtc=${new Date(to).toISOString()}`;
  };

  it('a device report prints the certificate in force and "válido até"; a device without one says so', async () => {
    const truck = (await ctx.request('GET', `/api/devices/${ids[TRUCK_1]}/calibrations`, tokens['aurora.adm'])).json() as Calibration[];
    const withCertificate = await reportText(`/api/beacon-device/history/mac/${TRUCK_1}/pdf?${period()}`, 'truck.pdf');
    expect(withCertificate).toContain(`Calibração Certificado RBC-0421/2026, Laboratório Metrológico Paulista (RBC), válido até ${formatCalendarDate(truck[0]!.due_at)}`);
    const without = await reportText(`/api/beacon-device/history/mac/${FREEZER}/pdf?${period()}`, 'freezer.pdf');
    expect(without).toContain('Calibração Sem certificado de calibração');
  }, 300_000);

  it('a travel report prints each device’s line, "Calibração vencida" for an expired certificate', async () => {
    const res = await postCertificate(tokens['aurora.adm'], ids[TRUCK_2]!, [
      ...fields({ calibrated_at: addDays(today(), -800), due_at: addDays(today(), -435), certificate_number: 'OLD-9', laboratory: 'Termolab' }),
      certificate(pdf),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const id = await travelId(ctx, 'AUR9P5D2LC');
    const text = await reportText(`/api/travels/${id}/html`, 'travel.pdf', [1, 3]);
    expect(text).toContain(`Certificado OLD-9, Termolab: Calibração vencida (venceu em ${formatCalendarDate(addDays(today(), -435))})`);
  }, 300_000);
});
