import { randomInt } from 'node:crypto';

/** Six digits, uniformly random: typed from an e-mail, guarded by expiry and a few attempts (ADR 0015). */
export const newRecoveryCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
