import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { IsoDate } from './common';
import { deviceName } from './devices';
import { optionalText } from './values';

/** The one stored form of a MAC address: AA:BB:CC:DD:EE:FF (upper case, colons). */
export const CANONICAL_MAC = /^[0-9A-F]{2}(?::[0-9A-F]{2}){5}$/;
const LOOSE_MAC = /^[0-9A-F]{2}(?:[:-]?[0-9A-F]{2}){5}$/;

/**
 * AA:BB:CC:DD:EE:FF from what people and gateways type: lower case, dashes, or no separators at all
 * (aa-bb-cc-dd-ee-ff, aabbccddeeff); null when it is not a MAC.
 */
export function normalizeMac(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (CANONICAL_MAC.test(value)) return value;
  const upper = value.trim().toUpperCase();
  if (upper.length > 17 || !LOOSE_MAC.test(upper)) return null;
  return upper.replace(/[:-]/g, '').replace(/(..)(?!$)/g, '$1:');
}

export const BEACON_MESSAGES = {
  macRequired: 'Informe o endereço MAC.',
  macInvalid: 'Endereço MAC inválido. Use o formato AA:BB:CC:DD:EE:FF.',
  macTaken: (mac: string) => `Já existe um dispositivo cadastrado com o MAC ${mac}.`,
  registered: 'Dispositivo cadastrado com sucesso!',
  linked: 'Dispositivos vínculados com sucesso!',
  importNoRows: 'A planilha não tem nenhuma linha preenchida abaixo do cabeçalho.',
  importTooManyRows: (max: number) => `A planilha pode ter no máximo ${max} linhas de dispositivos.`,
  importNotSpreadsheet: 'Envie uma planilha .xlsx ou um arquivo .csv.',
  importCsvInvalid: (line: number) => `O arquivo .csv está malformado perto da linha ${line} (uma aspa aberta e não fechada?). Corrija-o ou salve-o de novo pelo Excel.`,
  importSummary: (n: number) => `${n} dispositivo(s) cadastrado(s) com sucesso!`,
  importErrors: (n: number) => `${n} linha(s) com erro não foram cadastradas:`,
} as const;

/** A MAC as typed, stored in its canonical form. */
export const macAddress = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? BEACON_MESSAGES.macRequired : BEACON_MESSAGES.macInvalid) })
  .max(64, BEACON_MESSAGES.macInvalid)
  .transform((value, ctx) => {
    if (value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: BEACON_MESSAGES.macRequired });
      return z.NEVER;
    }
    const mac = normalizeMac(value);
    if (!mac) {
      ctx.addIssue({ code: 'custom', message: BEACON_MESSAGES.macInvalid });
      return z.NEVER;
    }
    return mac;
  });

export const deviceModel = optionalText('O modelo', { max: 60 });

/** POST /api/beacon-device (X1): one beacon registered by the super admin, not yet in any enterprise. */
export const RegisterBeaconBody = z.object({ mac: macAddress, name: deviceName, model: deviceModel });
export type RegisterBeaconBody = z.infer<typeof RegisterBeaconBody>;

/** POST /api/beacon-device/import: how many were registered and one message per refused row. */
export const BeaconImportResult = z.object({ registered: z.number().int(), errors: z.array(z.string()) });
export type BeaconImportResult = z.infer<typeof BeaconImportResult>;

/** The columns of the import template, in order (the model is optional). */
export const BEACON_IMPORT_COLUMNS = ['MAC', 'Nome', 'Modelo'] as const;

/** A MAC gateways sent readings for that no device has (X1). */
export const DiscoveredDevice = z.object({
  mac: z.string(),
  first_seen_at: IsoDate,
  last_seen_at: IsoDate,
  gateway: z.object({ _id: z.string(), name: z.string() }).nullable(),
  readings: z.number().int(),
});
export type DiscoveredDevice = z.infer<typeof DiscoveredDevice>;

/** Most ids one link call may carry. */
export const MAX_LINKED_DEVICES = 5000;

const linkDevices = z
  .array(z.uuid('Dispositivo não encontrado.'), { message: 'Informe a lista de dispositivos.' })
  .max(MAX_LINKED_DEVICES, `No máximo ${MAX_LINKED_DEVICES} dispositivos por vez.`);

/**
 * `to_update` (ADR 18): 0, what the documented client sends, says `devices` is the whole new set (devices left out
 * are unlinked); 1 only adds `devices` to those already linked. Required (ADR 57): a body without it used to mean
 * "replace", so a client that forgot it unlinked every device it did not name.
 */
export const LINK_MESSAGES = {
  toUpdateMissing: 'Informe to_update: 0 para substituir os dispositivos vinculados pela lista enviada, ou 1 para acrescentá-los.',
  toUpdateInvalid: 'to_update deve ser 0 (substituir) ou 1 (acrescentar).',
} as const;
const toUpdate = z.union([z.literal(0), z.literal(1)], {
  error: (issue) => (issue.input === undefined ? LINK_MESSAGES.toUpdateMissing : LINK_MESSAGES.toUpdateInvalid),
});

export const LinkDevicesToClientBody = z.object({
  devices: linkDevices,
  to_update: toUpdate,
  client_id: z.uuid('Empresa não encontrada.'),
  reason: changeReason(),
});
export type LinkDevicesToClientBody = z.infer<typeof LinkDevicesToClientBody>;

export const LinkDevicesToUserBody = z.object({
  devices: linkDevices,
  to_update: toUpdate,
  user_id: z.uuid('Usuário não encontrado.'),
  reason: changeReason(),
});
export type LinkDevicesToUserBody = z.infer<typeof LinkDevicesToUserBody>;

export const LinkDevicesResult = z.object({
  success: z.literal(true),
  message: z.string(),
  linked: z.number().int(),
  unlinked: z.number().int(),
});
export type LinkDevicesResult = z.infer<typeof LinkDevicesResult>;

