import { randomBytes } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The BR Code's txid (field 62-05) of a static PIX holds at most 25 characters (Banco Central's BR Code manual;
 * pix-utils refuses more, and payers' banks reject longer ones): each invoice gets 25 random letters and digits,
 * which is 148 bits, so guessing another invoice's txid is hopeless (ADR 27).
 */
export const TXID_LENGTH = 25;

export function newTxid(): string {
  let out = '';
  while (out.length < TXID_LENGTH) {
    for (const byte of randomBytes(TXID_LENGTH * 2)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < TXID_LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface PixReceiver {
  key: string;
  name: string;
  city: string;
}

/**
 * The "copia e cola" code of a static PIX for an exact amount (EMV BR Code with CRC16, by pix-utils) and its QR code
 * as a PNG data: URL. The amount crosses into reais only here, as the text of two decimals the code carries.
 */
export async function pixPayment(receiver: PixReceiver, amountCents: number, txid: string): Promise<{ brcode: string; qrcode: string }> {
  const pix = createStaticPix({
    pixKey: receiver.key,
    merchantName: receiver.name,
    merchantCity: receiver.city,
    txid,
    // cents / 100 is the double nearest the amount; toFixed(2) inside gives back its exact two decimals.
    transactionAmount: amountCents / 100,
  });
  if (hasError(pix)) throw new Error(`BR Code not made: ${pix.message}`);
  const brcode = pix.toBRCode();
  const qrcode = await QRCode.toDataURL(brcode, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
  return { brcode, qrcode };
}
