import { z } from './zod-locale';
import { IsoDate } from './common';

/** Texts of the firmware screen (spec 001 §5, §8) and of the server's refusals. */
export const FIRMWARE_MESSAGES = {
  saved: 'Nova versão do Firmware salva com sucesso!',
  versionNotHigher: 'A nova versão não pode ser menor ou igual a atual',
  versionRequired: 'Informe a versão.',
  versionFormat: 'A versão deve ter o formato 9.9.9 (por exemplo, 1.0.2).',
  fileRequired: 'Selecione o arquivo do firmware.',
  fileEmpty: 'O arquivo do firmware está vazio.',
  oneFile: 'Envie um único arquivo.',
  notMultipart: 'Envie a versão, as notas e o arquivo como formulário (multipart/form-data).',
  notesTooLong: 'As notas da versão são longas demais.',
  notFound: 'Firmware não encontrado.',
  fileMissing: 'O arquivo deste firmware não está mais disponível.',
  saveFailed: 'Não foi possível salvar a nova versão do firmware.',
  listFailed: 'Não foi possível carregar as versões de firmware.',
  downloadFailed: 'Não foi possível baixar o arquivo.',
  fileTooLarge: (maxBytes: number) => `O arquivo do firmware deve ter no máximo ${formatMegabytes(maxBytes)}.`,
} as const;

/** "5 MB", "1,5 MB" (pt-BR decimal comma), "512 KB" below a megabyte. */
export function formatMegabytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  const mb = Math.round((bytes / (1024 * 1024)) * 10) / 10;
  return `${String(mb).replace('.', ',')} MB`;
}

/** The documents' mask 9.9.9: one digit per part. */
export const FIRMWARE_VERSION_PATTERN = /^(\d)\.(\d)\.(\d)$/;

/**
 * A version as one comparable number, part by part (major, then minor, then patch), never as text. Parts get three
 * decimal places each, so the order stays right even if the mask ever widens to two or three digits per part.
 */
export function firmwareVersionNumber(version: string): number | null {
  const match = FIRMWARE_VERSION_PATTERN.exec(version);
  if (!match) return null;
  return Number(match[1]) * 1_000_000 + Number(match[2]) * 1_000 + Number(match[3]);
}

export const FirmwareVersion = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? FIRMWARE_MESSAGES.versionRequired : FIRMWARE_MESSAGES.versionFormat) })
  .trim()
  .min(1, FIRMWARE_MESSAGES.versionRequired)
  .regex(FIRMWARE_VERSION_PATTERN, FIRMWARE_MESSAGES.versionFormat);

/** Longest notes (HTML from the editor), in characters, before and after sanitising. */
export const FIRMWARE_NOTES_MAX_CHARS = 20_000;

export const Firmware = z.object({
  _id: z.string(),
  version: z.string(),
  /** Sanitised HTML (the server keeps only formatting tags); render it as HTML, it holds no script or handler. */
  notes: z.string(),
  created_at: IsoDate,
  file_name: z.string(),
  file_size: z.number().int(),
  /** SHA-256 of the file, hex: a technician compares it with the downloaded file's. */
  sha256: z.string(),
});
export type Firmware = z.infer<typeof Firmware>;

/** GET /api/firmwares: newest first; the first is the current version. */
export const FirmwareList = z.array(Firmware);

/** GET /api/firmwares/limits: what the add-version form checks before sending. */
export const FirmwareLimits = z.object({ max_bytes: z.number().int() });
export type FirmwareLimits = z.infer<typeof FirmwareLimits>;
