import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser as the push protocol sees it: its P-256 key pair and auth secret, and its subscription. */
export interface TestBrowser {
  id: string;
  /** PushSubscription.toJSON(), as the browser would hand it to the page. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** A message the push service accepted, decrypted with the browser's private key. */
export interface ReceivedPush {
  browserId: string;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** The VAPID claims, after their ES256 signature was verified with the key the request carried (k=). */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
}

interface BrowserKeys {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

/**
 * A local push service on 127.0.0.1 for tests, speaking the Web Push protocol (RFC 8030): a POST to a browser's
 * endpoint with an aes128gcm body (RFC 8188/8291) and a VAPID Authorization header (RFC 8292). It makes browsers
 * the way a browser does (a P-256 key pair and a 16-byte auth secret), verifies the VAPID signature, decrypts what
 * arrives with the browser's private key and keeps the plain text. An endpoint can be told to answer 410 Gone
 * (an expired subscription) or to fail a number of times with 500.
 */
export async function startPushService() {
  const browsers = new Map<string, BrowserKeys>();
  const received: ReceivedPush[] = [];
  const gone = new Set<string>();
  const failures = new Map<string, number>();
  const refused: Array<{ browserId: string; status: number; why: string }> = [];

  const server = createServer((req, res) => {
    void (async () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = (status: number, why = '') => {
        if (status >= 400 && id) refused.push({ browserId: id, status, why });
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(why);
      };
      if (req.method !== 'POST' || !id || !browsers.has(id)) return answer(404, 'no such subscription');
      if (gone.has(id)) return answer(410, 'subscription expired');
      const left = failures.get(id) ?? 0;
      if (left > 0) {
        failures.set(id, left - 1);
        return answer(500, 'push service unavailable');
      }
      try {
        if (!req.headers.ttl || !/^\d+$/.test(String(req.headers.ttl))) throw new Error('TTL header missing');
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`unexpected content-encoding ${req.headers['content-encoding']}`);
        const origin = `http://${req.headers.host}`;
        const vapid = verifyVapid(String(req.headers.authorization ?? ''), origin);
        const text = decrypt(browsers.get(id)!, Buffer.concat(chunks));
        received.push({ browserId: id, text, headers: req.headers, vapid });
        answer(201);
      } catch (error) {
        answer(400, (error as Error).message);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}`;

  return {
    root,
    received,
    refused,
    /** A new browser: its keys are made here, as a browser makes them when a page subscribes. */
    newBrowser(): TestBrowser {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      browsers.set(id, { ecdh, auth });
      return {
        id,
        subscription: {
          endpoint: `${root}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      };
    },
    /** From now on the endpoint answers 410 Gone (the user revoked the permission, the browser was reset). */
    expire(browserId: string) {
      gone.add(browserId);
    },
    failNext(browserId: string, times: number) {
      failures.set(browserId, times);
    },
    async waitFor(match: (p: ReceivedPush) => boolean, timeoutMs = 20_000): Promise<ReceivedPush> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching push; received: ${JSON.stringify(received.map((r) => r.text))}; refused: ${JSON.stringify(refused)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type PushServiceServer = Awaited<ReturnType<typeof startPushService>>;

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT is ES256-signed by k, for this origin, not expired. */
function verifyVapid(header: string, origin: string): ReceivedPush['vapid'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
  if (!match) throw new Error(`bad Authorization header: ${header}`);
  const [signingInput, signature] = [match[1]!.split('.').slice(0, 2).join('.'), match[1]!.split('.')[2]!];
  const point = Buffer.from(match[2]!, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  if (!verify('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('VAPID signature does not verify');
  const header0 = JSON.parse(Buffer.from(signingInput.split('.')[0]!, 'base64url').toString('utf8')) as { alg: string };
  if (header0.alg !== 'ES256') throw new Error(`VAPID alg ${header0.alg}`);
  const claims = JSON.parse(Buffer.from(signingInput.split('.')[1]!, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) throw new Error(`VAPID aud ${claims.aud}, expected ${origin}`);
  if (claims.exp * 1000 < Date.now()) throw new Error('VAPID token expired');
  return { ...claims, publicKey: match[2]! };
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 §3.4 and RFC 8188: the aes128gcm body, decrypted with the browser's private key and auth secret. */
function decrypt(browser: BrowserKeys, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid of ${idLength} bytes, expected the server's 65-byte public key`);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const secret = browser.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverPublicKey]);
  const ikm = hkdf(browser.auth, secret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('bad record delimiter');
  return padded.subarray(0, end).toString('utf8');
}
