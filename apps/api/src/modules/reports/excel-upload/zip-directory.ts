import { REPORT_MESSAGES } from '@sentinela/contract';
import { AppError, badRequest } from '../../../lib/errors';
import { REPORT_SERVER_MESSAGES as M } from '../messages';

/** One part of an .xlsx archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated: the only two an .xlsx uses. */
  method: 0 | 8;
  /** Where its compressed bytes start and how many there are, inside the archive. */
  dataStart: number;
  compressedSize: number;
  /** What the archive says it inflates to: a claim, checked again while inflating. */
  declaredSize: number;
}

export interface ZipLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const END_MIN = 22;
/** Flag bits: 0 encrypted, 6 strong encryption, 13 encrypted directory. */
const ENCRYPTION_FLAGS = 0x0001 | 0x0040 | 0x2000;

const notXlsx = () => badRequest(REPORT_MESSAGES.notXlsx);
export const inflatedTooLarge = (maxBytes: number) => new AppError('PAYLOAD_TOO_LARGE', M.excelInflatedTooLarge(maxBytes));

/**
 * Reads an .xlsx archive's central directory and refuses it before anything is inflated: not a zip, too many parts,
 * encrypted or oddly compressed parts, ZIP64, parts outside the file, or declared sizes that add up past the cap.
 * Costs one pass over the directory (at most `maxEntries` records), so it runs on the main thread.
 */
export function readZipDirectory(data: Buffer, limits: ZipLimits): ZipEntry[] {
  if (data.length < END_MIN || data.readUInt32LE(0) !== LOCAL_HEADER) throw notXlsx();
  const end = findEndOfDirectory(data);
  if (end < 0) throw notXlsx();
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  const offset = data.readUInt32LE(end + 16);
  // Multi-disk archives and ZIP64 (the 0xFFFF… markers): an .xlsx of a few megabytes never needs them.
  if (data.readUInt16LE(end + 4) !== 0 || data.readUInt16LE(end + 8) !== count) throw notXlsx();
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw badRequest(M.excelOddParts);
  if (count > limits.maxEntries) throw badRequest(M.excelTooManyParts(limits.maxEntries));
  if (offset + size > end) throw notXlsx();

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let declaredTotal = 0;
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || data.readUInt32LE(at) !== CENTRAL_HEADER) throw notXlsx();
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const declaredSize = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localOffset = data.readUInt32LE(at + 42);
    if (at + 46 + nameLength > end) throw notXlsx();
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;

    if (flags & ENCRYPTION_FLAGS) throw badRequest(M.excelEncrypted);
    if (method !== 0 && method !== 8) throw badRequest(M.excelOddParts);
    if (compressedSize === 0xffffffff || declaredSize === 0xffffffff || localOffset === 0xffffffff) throw badRequest(M.excelOddParts);
    // Two parts of one name: which one a reader takes is up to the reader; refuse rather than guess.
    if (names.has(name)) throw badRequest(M.excelOddParts);
    names.add(name);
    declaredTotal += declaredSize;
    if (declaredTotal > limits.maxInflatedBytes) throw inflatedTooLarge(limits.maxInflatedBytes);

    if (localOffset + 30 > offset || data.readUInt32LE(localOffset) !== LOCAL_HEADER) throw notXlsx();
    const dataStart = localOffset + 30 + data.readUInt16LE(localOffset + 26) + data.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > offset) throw notXlsx();
    entries.push({ name, method, dataStart, compressedSize, declaredSize });
  }
  return entries;
}

/** The end-of-central-directory record: the last one, within the 64 KB a comment may take. */
function findEndOfDirectory(data: Buffer): number {
  const lowest = Math.max(0, data.length - END_MIN - 0xffff);
  for (let at = data.length - END_MIN; at >= lowest; at--) {
    if (data.readUInt32LE(at) === END_OF_DIRECTORY && at + END_MIN + data.readUInt16LE(at + 20) === data.length) return at;
  }
  return -1;
}
