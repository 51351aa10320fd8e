import { createHmac, randomUUID, randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { CONTACT_MESSAGES } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';

/** PBKDF2 is what the widget solves with the browser's WebCrypto, in workers it bundles (no extra worker file). */
const ALGORITHM = 'PBKDF2/SHA-256';

export interface HumanCheckSettings {
  secret: string | undefined;
  secretFile: string;
  minutes: number;
  cost: number;
  maxCounter: number;
}

/**
 * The contact form's "not a robot" check (A14, ADR 0017): a self-hosted ALTCHA proof of work (PoW v2 of altcha-lib
 * 2 and the widget 3). A challenge is signed with our HMAC secret and carries its own id and expiry in its signed
 * `data`; the browser spends about a second finding the counter; the answer is accepted once, before it expires by
 * the server's clock.
 */
export class HumanCheck {
  private keys: Promise<{ signature: string; keySignature: string }> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: HumanCheckSettings,
  ) {}

  async createChallenge(): Promise<Challenge> {
    const { signature, keySignature } = await this.secrets();
    const expiresAt = Math.floor(this.clock.now().getTime() / 1000) + this.settings.minutes * 60;
    return createChallenge({
      algorithm: ALGORITHM,
      cost: this.settings.cost,
      // Deterministic mode: the server knows the answer's key and signs it, so checking an answer costs one HMAC.
      counter: randomInt(this.settings.maxCounter, Math.floor(this.settings.maxCounter / 2)),
      deriveKey,
      hmacSignatureSecret: signature,
      hmacKeySignatureSecret: keySignature,
      data: { id: randomUUID(), exp: expiresAt },
    });
  }

  /** Accepts a solved challenge once; otherwise a 400 with what to do in pt-BR. */
  async spend(token: string): Promise<void> {
    const payload = parsePayload(token);
    if (!payload) throw new AppError('BAD_REQUEST', CONTACT_MESSAGES.checkInvalid);
    const { signature, keySignature } = await this.secrets();
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: signature,
      hmacKeySignatureSecret: keySignature,
    }).catch(() => null);
    if (!result?.verified) throw new AppError('BAD_REQUEST', CONTACT_MESSAGES.checkInvalid);
    // Signed, so these are ours: a challenge without them was not made here.
    const { id, exp } = payload.challenge.parameters.data ?? {};
    if (typeof id !== 'string' || typeof exp !== 'number') throw new AppError('BAD_REQUEST', CONTACT_MESSAGES.checkInvalid);
    const now = this.clock.now();
    if (exp * 1000 <= now.getTime()) throw new AppError('BAD_REQUEST', CONTACT_MESSAGES.checkExpired);
    // Spent ids are kept until they would have expired anyway; old ones go as new ones come.
    await this.db.deleteFrom('spent_challenges').where('expires_at', '<', now).execute();
    const spent = await this.db
      .insertInto('spent_challenges')
      .values({ challenge_id: id, expires_at: new Date(exp * 1000) })
      .onConflict((oc) => oc.column('challenge_id').doNothing())
      .returning('challenge_id')
      .executeTakeFirst();
    if (!spent) throw new AppError('BAD_REQUEST', CONTACT_MESSAGES.checkUsed);
  }

  private secrets() {
    this.keys ??= (async () => {
      const signature = this.settings.secret ?? (await secretFromFile(this.settings.secretFile));
      // A second secret for the answers' keys, derived so that one setting is enough.
      return { signature, keySignature: createHmac('sha256', signature).update('contact-challenge-key-signature').digest('hex') };
    })();
    return this.keys;
  }
}

/** The widget sends base64 of JSON {challenge, solution}; anything else is not an answer. */
function parsePayload(token: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Partial<Payload> | null;
    const challenge = value?.challenge;
    const solution = value?.solution;
    if (!challenge || typeof challenge !== 'object' || !challenge.parameters || typeof challenge.parameters !== 'object') return null;
    if (typeof challenge.signature !== 'string' || !solution || typeof solution !== 'object') return null;
    if (!Number.isSafeInteger(solution.counter) || typeof solution.derivedKey !== 'string') return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

/** The secret made once under DATA_DIR (like the report signing key): the first process to start writes it. */
async function secretFromFile(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(secret);
    } finally {
      await handle.close();
    }
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}
