import { apiFetch } from './api-client';

/**
 * The file name a server gives in Content-Disposition: the RFC 5987 `filename*=UTF-8''…` form first (it carries
 * accents), else the plain `filename=` one. Null when there is none.
 */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed encoded name: fall back to the plain one.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name : null;
}

/** Saves a blob as a file through a temporary anchor (the browser's own download, no new window). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click starts the download synchronously; the address is released once the browser has taken the blob.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads a file from an API route that needs the session's token (so a plain link cannot open it) and saves it
 * under the server's name, or `fallbackName` when the server gives none. Answers the name it was saved under.
 */
export async function downloadFile(path: string, fallbackName: string, signal?: AbortSignal): Promise<string> {
  const response = await apiFetch(path, { accept: '*/*', signal });
  const filename = filenameFromContentDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  saveBlob(await response.blob(), filename);
  return filename;
}
