/**
 * The built-in PDF fonts (Helvetica) encode text as WinAnsi: Latin-1 plus a few typographic marks. Portuguese fits
 * entirely ("ç ã é º °"), but names and messages typed by users may hold anything, and pdfkit writes a character
 * outside WinAnsi as garbage bytes. This maps such text onto what the font can print.
 */

/** The characters above U+00FF that WinAnsi has, and their bytes (its 0x80–0x9F block). */
const WIN_ANSI_EXTRAS = new Map([
  [0x20ac, 0x80], [0x201a, 0x82], [0x192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86], [0x2021, 0x87],
  [0x2c6, 0x88], [0x2030, 0x89], [0x160, 0x8a], [0x2039, 0x8b], [0x152, 0x8c], [0x17d, 0x8e], [0x2018, 0x91],
  [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95], [0x2013, 0x96], [0x2014, 0x97], [0x2dc, 0x98],
  [0x2122, 0x99], [0x161, 0x9a], [0x203a, 0x9b], [0x153, 0x9c], [0x17e, 0x9e], [0x178, 0x9f],
]);

/** The WinAnsi byte of a character that toWinAnsi let through. */
export function winAnsiByte(code: number): number {
  return WIN_ANSI_EXTRAS.get(code) ?? code;
}

/** Look-alikes for characters users paste often. */
const SUBSTITUTES: Record<string, string> = {
  '→': '->',
  '←': '<-',
  '≤': '<=',
  '≥': '>=',
  '−': '-',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u200b': '',
  '\t': ' ',
  '\r': '',
};

function printable(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(code) || code === 0x0a;
}

/** The text as the built-in fonts can print it: unsupported letters lose their marks, anything else becomes "?". */
export function toWinAnsi(text: string): string {
  let supported = true;
  for (let i = 0; i < text.length; i++) {
    if (!printable(text.charCodeAt(i))) {
      supported = false;
      break;
    }
  }
  if (supported) return text; // the usual case, checked without allocating

  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (printable(code)) out += char;
    else if (char in SUBSTITUTES) out += SUBSTITUTES[char];
    else {
      // "ő" → "o", "ș" → "s": decompose and keep the base letter when the font has it.
      const base = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && [...base].every((c) => printable(c.codePointAt(0)!)) ? base : code < 0x20 ? ' ' : '?';
    }
  }
  return out;
}
