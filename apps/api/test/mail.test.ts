import { readdir, readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMail, mailText, ours, quoted, quotedBlock, quoteName } from '../src/modules/mail/compose';
import { MAIL_JOB } from '../src/modules/mail/mail-service';
import { OutboxTransport } from '../src/modules/mail/transport';
import { createTestContext, type TestContext } from './context';
import { addressesOf, startSmtpServer, type TestSmtpServer } from './smtp-server';

const sample = (to: string) =>
  composeMail({
    to,
    subject: mailText`Confirme seu e-mail`,
    greeting: mailText`Olá, ${ours('<Ana> & cia')}`,
    paragraphs: [mailText`Sua conta foi criada.`],
    action: { label: mailText`Confirmar e-mail`, url: 'http://sentinela.test/confirmation/abc?x=1&y=2' },
    footnotes: [mailText`Este link expira em 48 horas.`],
  });

describe('e-mail through an SMTP relay (job with retries)', () => {
  let smtp: TestSmtpServer;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpServer({ refuseFirst: 1 });
    ctx = await createTestContext({ config: { smtpUrl: smtp.url } });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('delivers a pt-BR message in text and HTML, after a temporary refusal, without the caller waiting', async () => {
    const started = Date.now();
    await ctx.services.mail.send(sample('ana@example.com'));
    // Queued, not delivered, when send returns: the relay refuses the first attempt.
    expect(Date.now() - started).toBeLessThan(2_000);
    const mail = await smtp.waitForMail('ana@example.com', 'Confirme seu e-mail');
    expect(smtp.attempts).toBeGreaterThanOrEqual(2);
    expect(mail.from?.value[0]?.address).toBe('nao-responda@sentinela.test');
    expect(addressesOf(mail)).toEqual(['ana@example.com']);
    expect(mail.text).toContain('Olá, <Ana> & cia');
    expect(mail.text).toContain('Confirmar e-mail: http://sentinela.test/confirmation/abc?x=1&y=2');
    // The visitor's text is escaped in the HTML; the link is there with its query intact.
    expect(mail.html).toContain('Olá, &lt;Ana&gt; &amp; cia');
    expect(mail.html).toContain('href="http://sentinela.test/confirmation/abc?x=1&amp;y=2"');
    const jobs = await ctx.services.jobs.jobsFor(MAIL_JOB, (await findKey(ctx))!);
    expect(jobs.at(-1)?.retryCount).toBeGreaterThanOrEqual(1);
  });
});

/** The key of the only mail job sent so far (keys are random per message). */
async function findKey(ctx: TestContext): Promise<string | undefined> {
  const { sql } = await import('kysely');
  const rows = await sql<{ singleton_key: string }>`SELECT singleton_key FROM pgboss.job WHERE name = ${MAIL_JOB}`.execute(ctx.db);
  return rows.rows[0]?.singleton_key;
}

describe('e-mail without a relay: the outbox', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('writes each message as an .eml file under the outbox, readable by any mail client', async () => {
    await ctx.services.mail.send(sample('bia@example.com'));
    const dir = ctx.services.config.mailOutboxDir;
    let files: string[] = [];
    for (let i = 0; i < 100 && files.length === 0; i++) {
      files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.eml'));
      if (files.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(path.join(dir, files[0]!)));
    expect(mail.subject).toBe('Confirme seu e-mail');
    expect(addressesOf(mail)).toEqual(['bia@example.com']);
    expect(mail.text).toContain('http://sentinela.test/confirmation/abc?x=1&y=2');
    expect(mail.html).toContain('Confirmar e-mail');
  });

  it('logs the subject and the links of what it writes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sentinela-outbox-log-'));
    const lines: Array<{ obj: unknown; msg: string }> = [];
    const log = { info: (obj: unknown, msg: string) => lines.push({ obj, msg }), warn: () => {}, error: () => {} };
    try {
      await new OutboxTransport(dir, 'Sentinela <x@sentinela.test>', log).deliver(sample('cris@example.com'));
      expect(lines).toHaveLength(1);
      expect(lines[0]!.obj).toMatchObject({
        to: 'cris@example.com',
        subject: 'Confirme seu e-mail',
        links: ['http://sentinela.test/confirmation/abc?x=1&y=2'],
      });
      expect(await readdir(dir)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('names others chose are quoted, never addressed (issue 21.10)', () => {
  it('quotes a name on one line, without quotation marks of its own, cut at 60 characters', () => {
    expect(quoteName('Suporte: acesse http://golpe.example e informe sua senha')).toBe('“Suporte: acesse http://golpe.example e informe sua senha”');
    expect(quoteName('Ana\r\nAssunto: urgente\u0007')).toBe('“Ana Assunto: urgente”');
    expect(quoteName('Ana” clique aqui “')).toBe("“Ana' clique aqui '”");
    const long = quoteName('x'.repeat(500));
    expect([...long].length).toBe(62);
    expect(long.endsWith('…”')).toBe(true);
  });

  it('a template interpolates a third-party value only quoted, and a long message only as a block apart', () => {
    const mail = composeMail({
      to: 'contato@sentinela.test',
      subject: mailText`Contato de ${quoted('Suporte\nBcc: todos@example.com')}`,
      paragraphs: [mailText`Empresa ${quoted('<b>Aurora</b>')} (${3} usuários)`, quotedBlock('linha 1\nacesse http://golpe.example')],
    });
    expect(mail.subject).toBe('Contato de “Suporte Bcc: todos@example.com”');
    expect(mail.text).toContain('Empresa “<b>Aurora</b>” (3 usuários)');
    expect(mail.text).toContain('> linha 1\n> acesse http://golpe.example');
    expect(mail.html).toContain('Empresa “&lt;b&gt;Aurora&lt;/b&gt;” (3 usuários)');
    expect(mail.html).toMatch(/<blockquote[^>]*>linha 1<br>acesse http:\/\/golpe\.example<\/blockquote>/);
  });
});
