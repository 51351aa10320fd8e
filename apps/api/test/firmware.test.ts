import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_MESSAGES } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { file, image, notes, postFirmware, sha256, version } from './firmware-helpers';

/** Firmware versions (M1): super admin only, versions only upwards, files bounded, kept with their SHA-256. */

let ctx: TestContext;
let admin: string;

const filesIn = (c: TestContext) => readdirSync(c.services.config.firmwareDir);
const rowCount = async (c: TestContext) => Number((await c.db.selectFrom('firmwares').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { firmwareMaxBytes: 4096 } });
  admin = (await ctx.login('admin')).token;
});
afterAll(() => ctx.close());

describe('who may manage firmware', () => {
  it('only the super admin: enterprise admins and users get 403, visitors 401, and nothing is stored', async () => {
    for (const username of ['aurora.adm', 'joao.silva', 'vida.adm']) {
      const { token } = await ctx.login(username);
      expect((await ctx.request('GET', '/api/firmwares', token)).statusCode).toBe(403);
      expect((await ctx.request('GET', '/api/firmwares/limits', token)).statusCode).toBe(403);
      const res = await postFirmware(ctx, token, [version('9.0.0'), notes('<p>x</p>'), file(image(10))]);
      expect(res.statusCode).toBe(403);
      expect((await ctx.request('GET', `/api/firmwares/${randomUUID()}/download`, token)).statusCode).toBe(403);
    }
    expect((await ctx.request('GET', '/api/firmwares')).statusCode).toBe(401);
    expect((await postFirmware(ctx, undefined, [version('9.0.0'), file(image(10))])).statusCode).toBe(401);
    expect(await rowCount(ctx)).toBe(0);
    expect(filesIn(ctx)).toEqual([]);
  });
});

describe('adding versions', () => {
  const first = image(3000, 1);

  it('starts empty, tells its file limit, and takes a first version with its notes sanitised', async () => {
    expect((await ctx.request('GET', '/api/firmwares', admin)).json()).toEqual([]);
    expect((await ctx.request('GET', '/api/firmwares/limits', admin)).json()).toEqual({ max_bytes: 4096 });

    const hostile =
      '<p onclick="steal()">Correções de <strong>bateria</strong> e <em>BLE</em></p><script>alert(1)</script>' +
      '<img src=x onerror="alert(2)"><a href="javascript:alert(3)">clique</a><a href="https://sentinela.example/notas">notas</a>' +
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style><ul><li>item</li></ul>';
    const res = await postFirmware(ctx, admin, [version('1.0.0'), notes(hostile), file(first)]);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ version: '1.0.0', file_name: 'sentinela-gw.bin', file_size: 3000, sha256: sha256(first) });
    expect(created.notes).toContain('Correções de <strong>bateria</strong> e <em>BLE</em>');
    expect(created.notes).toContain('<li>item</li>');
    expect(created.notes).toContain('<a href="https://sentinela.example/notas" target="_blank" rel="noopener noreferrer nofollow">notas</a>');
    for (const banned of ['<script', 'alert(', 'onerror', 'onclick', 'javascript:', '<img', '<iframe', '<style', 'display:none']) {
      expect(created.notes).not.toContain(banned);
    }
    // Stored sanitised: the list (what every screen reads) says the same.
    const [listed] = (await ctx.request('GET', '/api/firmwares', admin)).json();
    expect(listed).toEqual(created);
  });

  it('downloads the exact bytes, with their SHA-256 and a file name', async () => {
    const [current] = (await ctx.request('GET', '/api/firmwares', admin)).json();
    const res = await ctx.request('GET', `/api/firmwares/${current._id}/download`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(first)).toBe(true);
    expect(sha256(res.rawPayload)).toBe(current.sha256);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe('3000');
    expect(res.headers['content-disposition']).toBe('attachment; filename=sentinela-gw.bin');
    expect(res.headers['repr-digest']).toBe(`sha-256=:${createHash('sha256').update(first).digest('base64')}:`);
  });

  it('refuses a version not in the 9.9.9 format, with nothing stored', async () => {
    for (const bad of ['1.0', '1.0.0.0', '10.0.0', '1.10.0', 'a.b.c', '1,0,1', ' ', '1.0.1-beta']) {
      const res = await postFirmware(ctx, admin, [version(bad), file(image(10))]);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error, bad).toBe(bad.trim() ? FIRMWARE_MESSAGES.versionFormat : FIRMWARE_MESSAGES.versionRequired);
    }
    const missing = await postFirmware(ctx, admin, [notes('<p>sem versão</p>'), file(image(10))]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(FIRMWARE_MESSAGES.versionRequired);
    expect(await rowCount(ctx)).toBe(1);
    expect(filesIn(ctx)).toHaveLength(1);
  });

  it('refuses a version lower than or equal to the current one, compared part by part', async () => {
    for (const lower of ['1.0.0', '0.9.9', '0.0.1']) {
      const res = await postFirmware(ctx, admin, [version(lower), file(image(10))]);
      expect(res.statusCode, lower).toBe(409);
      expect(res.json().error).toBe('A nova versão não pode ser menor ou igual a atual');
      // Refused before its file was stored, yet the connection stays: a browser still sending reads the answer.
      expect(res.headers.connection).not.toBe('close');
    }
    // Also when the file comes before the version (decided once the whole form is read).
    const late = await postFirmware(ctx, admin, [file(image(10)), version('1.0.0')]);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe(FIRMWARE_MESSAGES.versionNotHigher);
    expect(await rowCount(ctx)).toBe(1);
    expect(filesIn(ctx)).toHaveLength(1);

    const next = await postFirmware(ctx, admin, [version('1.0.1'), file(image(20, 2))]);
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().notes).toBe('');
    const higher = await postFirmware(ctx, admin, [version('2.0.0'), notes('<p></p>'), file(image(30, 3), 'fw ç 2 (novo).bin')]);
    expect(higher.statusCode, higher.body).toBe(201);
    const list = (await ctx.request('GET', '/api/firmwares', admin)).json() as Array<{ version: string }>;
    expect(list.map((f) => f.version)).toEqual(['2.0.0', '1.0.1', '1.0.0']);
    const download = await ctx.request('GET', `/api/firmwares/${higher.json()._id}/download`, admin);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="fw c 2 (novo).bin"; filename*=UTF-8''fw%20%C3%A7%202%20%28novo%29.bin`);
  });

  it('refuses a missing or empty file, and a second file', async () => {
    const none = await postFirmware(ctx, admin, [version('3.0.0'), notes('<p>sem arquivo</p>')]);
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe(FIRMWARE_MESSAGES.fileRequired);
    const empty = await postFirmware(ctx, admin, [version('3.0.0'), file(Buffer.alloc(0))]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(FIRMWARE_MESSAGES.fileEmpty);
    const two = await postFirmware(ctx, admin, [version('3.0.0'), file(image(10)), file(image(10))]);
    expect(two.statusCode).toBe(400);
    expect(two.json().error).toBe(FIRMWARE_MESSAGES.oneFile);
    const json = await ctx.request('POST', '/api/firmwares', admin, { version: '3.0.0', notes: '' });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe(FIRMWARE_MESSAGES.notMultipart);
    expect(await rowCount(ctx)).toBe(3);
    expect(filesIn(ctx)).toHaveLength(3);
  });

  it('refuses a file over FIRMWARE_MAX_BYTES, declared or streamed, and keeps nothing of it', async () => {
    const atLimit = image(4096, 9);
    const overDeclared = await postFirmware(ctx, admin, [version('3.0.0'), file(image(200_000))]);
    expect(overDeclared.statusCode).toBe(413);
    expect(overDeclared.json().error).toBe('O arquivo do firmware deve ter no máximo 4 KB.');
    expect(overDeclared.headers.connection).toBe('close');
    const overStreamed = await postFirmware(ctx, admin, [version('3.0.0'), file(image(4097))], { stream: true });
    expect(overStreamed.statusCode).toBe(413);
    expect(overStreamed.json().error).toBe(FIRMWARE_MESSAGES.fileTooLarge(4096));
    expect(await rowCount(ctx)).toBe(3);
    expect(filesIn(ctx)).toHaveLength(3);
    // Exactly at the limit is accepted, streamed too.
    const accepted = await postFirmware(ctx, admin, [version('3.0.0'), file(atLimit)], { stream: true });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ file_size: 4096, sha256: sha256(atLimit) });
  });

  it('refuses notes longer than the limit', async () => {
    const res = await postFirmware(ctx, admin, [version('4.0.0'), notes(`<p>${'a'.repeat(20_001)}</p>`), file(image(10))]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(FIRMWARE_MESSAGES.notesTooLong);
  });

  it('two uploads of the same version at once: one is kept, the other told why, and no orphan file', async () => {
    const before = await rowCount(ctx);
    const [a, b] = await Promise.all([
      postFirmware(ctx, admin, [version('5.0.0'), file(image(1000, 4))]),
      postFirmware(ctx, admin, [version('5.0.0'), file(image(1000, 5))]),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().error).toBe(FIRMWARE_MESSAGES.versionNotHigher);
    expect(await rowCount(ctx)).toBe(before + 1);
    expect(filesIn(ctx)).toHaveLength(before + 1);
    const winner = a.statusCode === 201 ? a : b;
    const download = await ctx.request('GET', `/api/firmwares/${winner.json()._id}/download`, admin);
    expect(sha256(download.rawPayload)).toBe(winner.json().sha256);
  });
});

describe('downloads', () => {
  it('an unknown id is a 404 in Portuguese; a file gone from the folder a 410', async () => {
    const unknown = await ctx.request('GET', `/api/firmwares/${randomUUID()}/download`, admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(FIRMWARE_MESSAGES.notFound);
    const malformed = await ctx.request('GET', '/api/firmwares/nao-e-um-id/download', admin);
    expect(malformed.statusCode).toBe(400);

    const [current] = (await ctx.request('GET', '/api/firmwares', admin)).json();
    const row = await ctx.db.selectFrom('firmwares').select('file_path').where('id', '=', current._id).executeTakeFirstOrThrow();
    rmSync(`${ctx.services.config.firmwareDir}/${row.file_path}`);
    const gone = await ctx.request('GET', `/api/firmwares/${current._id}/download`, admin);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toBe(FIRMWARE_MESSAGES.fileMissing);
  });
});
