import { Zip, ZipPassThrough } from 'fflate';

/** Fixed name of the bulk download (R4): the reports are temperature and humidity reports. */
export const ZIP_NAME = 'relatorios-temperatura-umidade.zip';

/**
 * Entry names made unique in order: two reports of the same device, period and type would otherwise overwrite each
 * other when unzipped ("X.pdf", "X (2).pdf", …).
 */
export function uniqueEntryNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** One file of the zip: its entry name, and how to open its body when its turn comes. */
export interface ZipSource {
  name: string;
  /** Opens the file's body as a stream, with its size in bytes when known (Content-Length) for the progress. */
  open: (signal?: AbortSignal) => Promise<{ body: ReadableStream<Uint8Array>; size: number | null }>;
}

export interface ZipOptions {
  /** Share of the work done, 0 to 1: files done plus the received share of the current one. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /**
   * Output bytes gathered before they are folded into a Blob. The browser keeps Blob data outside the script's heap
   * (and spills large ones to disk), so the heap holds at most this much of the zip at a time.
   */
  foldBytes?: number;
}

/**
 * Streams files into one zip, one file after the other: each body is read chunk by chunk and each chunk goes straight
 * into the archive (no file is ever held whole, let alone twice). The entries are stored, not deflated: the reports
 * (PDF, XLSX) are already compressed, so deflating would cost time for nothing.
 */
export async function zipStreams(sources: readonly ZipSource[], options: ZipOptions = {}): Promise<Blob> {
  const { onProgress, signal, foldBytes = 8 * 1024 * 1024 } = options;
  const folded: Blob[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let failure: Error | null = null;
  let finished = false;

  const fold = () => {
    if (pending.length === 0) return;
    folded.push(new Blob(pending as BlobPart[]));
    pending = [];
    pendingBytes = 0;
  };
  // fflate calls back synchronously from push() and end() when every entry is stored.
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failure = error;
      return;
    }
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= foldBytes) fold();
    if (final) finished = true;
  });

  try {
    for (const [index, source] of sources.entries()) {
      signal?.throwIfAborted();
      const entry = new ZipPassThrough(source.name);
      zip.add(entry);
      const { body, size } = await source.open(signal);
      const reader = body.getReader();
      let received = 0;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          signal?.throwIfAborted();
          entry.push(value);
          received += value.length;
          if (size) onProgress?.((index + Math.min(received / size, 1)) / sources.length);
        }
      } catch (error) {
        await reader.cancel().catch(() => {});
        throw error;
      } finally {
        reader.releaseLock();
      }
      entry.push(new Uint8Array(0), true);
      if (failure) throw failure;
      onProgress?.((index + 1) / sources.length);
    }
    zip.end();
  } catch (error) {
    zip.terminate();
    throw error;
  }
  if (failure) throw failure;
  if (!finished) throw new Error('zip not finished');
  fold();
  return new Blob(folded, { type: 'application/zip' });
}
