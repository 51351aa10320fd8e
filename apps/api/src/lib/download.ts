import { create as contentDisposition } from 'content-disposition';

/** The name with accents dropped ("relatório" → "relatorio") and anything else outside printable ASCII as "_". */
function asciiFallback(filename: string): string {
  return filename.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\x20-\x7e]/g, '_');
}

/**
 * The one Content-Disposition of every download the API answers (reports, invoices, firmware, templates): the
 * `content-disposition` package writes the quoted ASCII name old clients read (accents dropped) and, when the name
 * has other characters, the exact one in RFC 8187 form (`filename*=UTF-8''…`), escaping what a header cannot carry.
 */
export function attachment(filename: string): string {
  const fallback = asciiFallback(filename);
  return contentDisposition(filename, { type: 'attachment', fallback: fallback === filename ? true : fallback });
}
