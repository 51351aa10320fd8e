// Debian's Chromium for the end-to-end tests: no browser is ever downloaded.
import { ensureDebianPackage, firstExisting } from './debian-packages.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  return ensureDebianPackage({ pkg: 'chromium', find: firstExisting([CHROMIUM_PATH]), label: 'e2e' });
}
