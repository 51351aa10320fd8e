import { Unzip, UnzipPassThrough, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { uniqueEntryNames, zipStreams, type ZipSource } from './zip-download';

/** Deterministic bytes, different per file. */
function bytes(length: number, seed: number): Uint8Array {
  const data = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

/** A body delivered in uneven chunks, as a network response is; counts how often it was read. */
function source(name: string, data: Uint8Array, chunkSize: number, withSize = true): ZipSource & { pulls: () => number } {
  let pulls = 0;
  return {
    name,
    pulls: () => pulls,
    open: async () => {
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls++;
          if (offset >= data.length) return controller.close();
          const size = Math.min(chunkSize + (pulls % 3) * 7, data.length - offset);
          controller.enqueue(data.slice(offset, offset + size));
          offset += size;
        },
      });
      return { body, size: withSize ? data.length : null };
    },
  };
}

async function unzip(blob: Blob) {
  return unzipSync(new Uint8Array(await blob.arrayBuffer()));
}

/** Compression method of each entry (0 = stored). */
function methods(zipBytes: Uint8Array): Record<string, number> {
  const found: Record<string, number> = {};
  const reader = new Unzip((file) => {
    found[file.name] = file.compression;
  });
  reader.register(UnzipPassThrough);
  reader.push(zipBytes, true);
  return found;
}

describe('zipStreams (R4)', () => {
  it('builds one zip whose entries are the streamed files, byte for byte, stored', async () => {
    const pdf = bytes(300_001, 1);
    const xlsx = bytes(12_345, 2);
    const empty = new Uint8Array(0);
    const sources = [
      source('6f1c2d3e.pdf', pdf, 4096),
      source('a1b2c3d4.xlsx', xlsx, 1000, false),
      source('vazio.pdf', empty, 10),
    ];

    const blob = await zipStreams(sources);

    expect(blob.type).toBe('application/zip');
    const files = await unzip(blob);
    expect(Object.keys(files)).toEqual(['6f1c2d3e.pdf', 'a1b2c3d4.xlsx', 'vazio.pdf']);
    expect(files['6f1c2d3e.pdf']).toEqual(pdf);
    expect(files['a1b2c3d4.xlsx']).toEqual(xlsx);
    expect(files['vazio.pdf']).toEqual(empty);
    // Read chunk by chunk, not in one piece.
    expect(sources[0]!.pulls()).toBeGreaterThan(50);
    expect(methods(new Uint8Array(await blob.arrayBuffer()))).toEqual({ '6f1c2d3e.pdf': 0, 'a1b2c3d4.xlsx': 0, 'vazio.pdf': 0 });
  });

  it('folds the output into blobs as it goes and still yields a valid zip', async () => {
    const data = bytes(100_000, 3);
    const blob = await zipStreams([source('a.pdf', data, 999)], { foldBytes: 1024 });
    expect((await unzip(blob))['a.pdf']).toEqual(data);
  });

  it('reports progress from 0 to 1, never going back', async () => {
    const seen: number[] = [];
    await zipStreams([source('a.pdf', bytes(50_000, 4), 5000), source('b.xlsx', bytes(20_000, 5), 5000, false)], {
      onProgress: (fraction) => seen.push(fraction),
    });
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every((value, i) => value >= 0 && value <= 1 && (i === 0 || value >= seen[i - 1]!))).toBe(true);
    expect(seen).toContain(0.5);
    expect(seen.at(-1)).toBe(1);
  });

  it('fails when a file cannot be opened or read, and stops when aborted', async () => {
    const broken: ZipSource = {
      name: 'x.pdf',
      open: () => Promise.reject(new Error('O relatório ainda está sendo gerado.')),
    };
    await expect(zipStreams([source('a.pdf', bytes(10, 6), 4), broken])).rejects.toThrow('O relatório ainda está sendo gerado.');

    const failing: ZipSource = {
      name: 'y.pdf',
      open: async () => ({
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array([1, 2, 3]));
            controller.error(new Error('conexão perdida'));
          },
        }),
        size: 10,
      }),
    };
    await expect(zipStreams([failing])).rejects.toThrow('conexão perdida');

    const controller = new AbortController();
    controller.abort(new Error('cancelado'));
    await expect(zipStreams([source('a.pdf', bytes(10, 7), 4)], { signal: controller.signal })).rejects.toThrow('cancelado');
  });
});

describe('uniqueEntryNames', () => {
  it('keeps names as they are and numbers the repeats, whatever their case', () => {
    expect(uniqueEntryNames(['A_2026-11-01_2026-11-02.pdf', 'B.pdf', 'A_2026-11-01_2026-11-02.pdf', 'a_2026-11-01_2026-11-02.PDF', 'A_2026-11-01_2026-11-02.xlsx', 'sem-tipo', 'sem-tipo'])).toEqual([
      'A_2026-11-01_2026-11-02.pdf',
      'B.pdf',
      'A_2026-11-01_2026-11-02 (2).pdf',
      'a_2026-11-01_2026-11-02 (3).PDF',
      'A_2026-11-01_2026-11-02.xlsx',
      'sem-tipo',
      'sem-tipo (2)',
    ]);
  });
});
