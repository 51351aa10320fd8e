import { vi } from 'vitest';

export interface SavedFile {
  name: string;
  blob: Blob;
}

/**
 * Captures the files the app saves (lib/download saveBlob: an object URL clicked through an anchor), which jsdom
 * cannot do itself.
 */
export function captureDownloads(): SavedFile[] {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: (blob: Blob) => {
      const url = `blob:test/${++next}`;
      blobs.set(url, blob);
      return url;
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => {} });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ name: this.download, blob });
  });
  return saved;
}

/** A file answer as the API sends it: its bytes in chunks, with its length and name. */
export function fileResponse(bytes: Uint8Array, filename: string, type = 'application/pdf'): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 1000) controller.enqueue(bytes.slice(offset, offset + 1000));
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': type,
      'content-length': String(bytes.length),
      'content-disposition': `attachment; filename="${filename}"`,
    },
  });
}
