import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { AppConfig } from '../../config/config';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const isKeyPair = (value: unknown): value is VapidKeys =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as VapidKeys).publicKey === 'string' &&
  /^[A-Za-z0-9_-]{87}$/.test((value as VapidKeys).publicKey) &&
  typeof (value as VapidKeys).privateKey === 'string' &&
  /^[A-Za-z0-9_-]{43}$/.test((value as VapidKeys).privateKey);

/**
 * The server's VAPID key pair (RFC 8292): from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or made once and kept under
 * DATA_DIR (mode 0600) so that browsers' subscriptions, bound to the public key, survive restarts. The first
 * process to start writes the file; another one starting at the same time reads theirs.
 */
export async function loadVapidKeys(config: Pick<AppConfig, 'vapidPublicKey' | 'vapidPrivateKey' | 'vapidKeysFile'>): Promise<VapidKeys> {
  if (config.vapidPublicKey && config.vapidPrivateKey) return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  const file = config.vapidKeysFile;
  const read = async () => {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isKeyPair(value)) throw new Error(`${file} does not hold a VAPID key pair: remove it to have a new one made (browsers will subscribe again)`);
    return value;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const keys = webpush.generateVAPIDKeys();
  // Written whole under a private name, then linked to the shared one: link() fails with EEXIST when another process
  // was first, and a reader never sees a file that exists but is not yet written.
  const temporary = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(temporary, JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }), { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
    return { publicKey: keys.publicKey, privateKey: keys.privateKey };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  } finally {
    await unlink(temporary);
  }
}
