import { createHash, randomBytes } from 'node:crypto';

/** Opaque secrets (session tokens, API keys) are random; only their SHA-256 is stored. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
