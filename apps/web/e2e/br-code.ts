/**
 * An independent reader of PIX BR Codes (Banco Central's "Manual do BR Code", EMV QRCPS-MPM): TLV fields of a
 * two-digit id, a two-digit length and the value, some of which nest; the CRC16-CCITT of field 63. Written for the
 * e2e specs so that the code the screen shows is checked without the library that made it (pix-utils).
 */

export type TlvFields = Map<string, string>;

/** Splits `text` into its TLV fields; throws on a length that runs past the end or a malformed header. */
export function parseTlv(text: string): TlvFields {
  const fields: TlvFields = new Map();
  let at = 0;
  while (at < text.length) {
    const header = text.slice(at, at + 4);
    if (!/^\d{4}$/.test(header)) throw new Error(`malformed TLV header at ${at}: ${JSON.stringify(header)}`);
    const id = header.slice(0, 2);
    const length = Number(header.slice(2));
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length !== length) throw new Error(`field ${id} runs past the end`);
    if (fields.has(id)) throw new Error(`field ${id} twice`);
    fields.set(id, value);
    at += 4 + length;
  }
  return fields;
}

/** CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection), four uppercase hex digits. */
export function crc16Ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export interface PixBrCode {
  payloadFormat: string;
  /** Field 26-00: "br.gov.bcb.pix". */
  gui: string;
  key: string;
  merchantCategory: string;
  currency: string;
  /** Field 54: reais with two decimals as text ("149.90"), or null for an open amount. */
  amount: string | null;
  country: string;
  name: string;
  city: string;
  /** Field 62-05. */
  txid: string;
  crc: string;
}

/** Reads a PIX "copia e cola" code, checking its structure and its CRC; throws when either is wrong. */
export function parsePixBrCode(code: string): PixBrCode {
  const fields = parseTlv(code);
  const crc = fields.get('63');
  if (!crc || !code.endsWith(`6304${crc}`)) throw new Error('the CRC (field 63) must be the last field');
  const expected = crc16Ccitt(code.slice(0, -4));
  if (crc !== expected) throw new Error(`CRC ${crc} does not match the code (${expected})`);
  const account = parseTlv(required(fields, '26'));
  const additional = parseTlv(required(fields, '62'));
  return {
    payloadFormat: required(fields, '00'),
    gui: required(account, '00'),
    key: required(account, '01'),
    merchantCategory: required(fields, '52'),
    currency: required(fields, '53'),
    amount: fields.get('54') ?? null,
    country: required(fields, '58'),
    name: required(fields, '59'),
    city: required(fields, '60'),
    txid: required(additional, '05'),
    crc,
  };
}

function required(fields: TlvFields, id: string): string {
  const value = fields.get(id);
  if (value === undefined) throw new Error(`field ${id} missing`);
  return value;
}
