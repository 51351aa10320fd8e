import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface FakeTsa {
  /** POST the TimeStampReq here. */
  url: string;
  /** The throwaway folder: `ca.pem` (the test root), `tsa.pem` (the TSA's certificate). */
  dir: string;
  caFile: string;
  tsaCertFile: string;
  /** Subject of the TSA's certificate, most specific first (as the validator names the authority). */
  authority: string;
  /** Requests received (each a TimeStampReq, DER). */
  requests: Buffer[];
  /** What the next requests get: a real `openssl ts -reply`, an HTTP error, bytes that are no answer, or nothing. */
  answer: { kind: 'reply' } | { kind: 'status'; status: number } | { kind: 'garbage' } | { kind: 'hang' };
  close(): Promise<void>;
}

const openssl = (dir: string, args: string[]) => run('openssl', args, { cwd: dir });

/**
 * A local RFC 3161 time-stamping authority standing in for a real one in tests: a throwaway root CA and a TSA
 * certificate (extendedKeyUsage critical timeStamping) made with openssl in a temp folder, and an HTTP server that
 * answers each `application/timestamp-query` with what `openssl ts -reply` makes of it (`application/timestamp-reply`).
 */
export async function startFakeTsa(): Promise<FakeTsa> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sentinela-tsa-'));
  const subject = '/C=BR/O=Sentinela Testes/CN=Carimbo do Tempo de Teste';
  await writeFile(path.join(dir, 'tsa-ext.cnf'), 'basicConstraints = CA:FALSE\nkeyUsage = critical, digitalSignature\nextendedKeyUsage = critical, timeStamping\n');
  await openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/C=BR/O=Sentinela Testes/CN=AC Raiz de Teste']);
  await openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', subject]);
  await openssl(dir, ['x509', '-req', '-in', 'tsa.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'tsa.pem', '-days', '2', '-extfile', 'tsa-ext.cnf']);
  await writeFile(path.join(dir, 'serial'), '01\n');
  await writeFile(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = test_tsa',
      '[ test_tsa ]',
      `dir = ${dir}`,
      'serial = $dir/serial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa.pem',
      'certs = $dir/tsa.pem',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );

  const hanging = new Set<ServerResponse>();
  let sequence = 0;
  const fake: FakeTsa = {
    url: '',
    dir,
    caFile: path.join(dir, 'ca.pem'),
    tsaCertFile: path.join(dir, 'tsa.pem'),
    authority: 'CN=Carimbo do Tempo de Teste, O=Sentinela Testes, C=BR',
    requests: [],
    answer: { kind: 'reply' },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };

  const reply = async (query: Buffer): Promise<Buffer> => {
    const n = ++sequence;
    const queryFile = path.join(dir, `query-${n}.tsq`);
    const replyFile = path.join(dir, `reply-${n}.tsr`);
    await writeFile(queryFile, query);
    await openssl(dir, ['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', queryFile, '-signer', 'tsa.pem', '-inkey', 'tsa.key', '-out', replyFile]);
    return readFile(replyFile);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(415).end();
        return;
      }
      const query = Buffer.concat(chunks);
      fake.requests.push(query);
      const answer = fake.answer;
      switch (answer.kind) {
        case 'reply':
          reply(query).then(
            (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
            () => res.writeHead(500).end(),
          );
          return;
        case 'status':
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end('unavailable');
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from('30030201ff', 'hex'));
          return;
        case 'hang':
          hanging.add(res);
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  return fake;
}

/** `openssl ts -verify` of a token (DER) over `data` against the fake TSA's root: true when openssl says "Verification: OK". */
export async function opensslVerifiesToken(tsa: FakeTsa, token: Buffer, data: Buffer): Promise<boolean> {
  const tokenFile = path.join(tsa.dir, `check-${Date.now()}-${Math.random().toString(36).slice(2)}.tst`);
  const dataFile = `${tokenFile}.data`;
  await writeFile(tokenFile, token);
  await writeFile(dataFile, data);
  try {
    const { stdout } = await openssl(tsa.dir, ['ts', '-verify', '-token_in', '-in', tokenFile, '-data', dataFile, '-CAfile', tsa.caFile, '-untrusted', tsa.tsaCertFile]);
    return stdout.includes('Verification: OK');
  } catch {
    return false;
  } finally {
    await rm(tokenFile, { force: true });
    await rm(dataFile, { force: true });
  }
}
