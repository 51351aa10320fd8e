import type { OutgoingMail } from './transport';

declare const mailTextBrand: unique symbol;

/**
 * Text of a message: written by the platform, with every value someone else chose quoted. Only `mailText` makes one,
 * so a template cannot put a raw name where the reader expects the platform's words (issue 21.10: a user named
 * "Suporte: acesse …" read as "Olá, Suporte: acesse …!").
 */
export type MailText = string & { readonly [mailTextBrand]: true };

/** A value the platform did not write: a person's, enterprise's or device's name, a visitor's words. Shown quoted. */
export interface Quoted {
  readonly quoted: string;
}
/** A value the platform made itself: an address it built, a formatted amount or date, a plan it sells. */
export interface Ours {
  readonly ours: string;
}
/** A visitor's or user's longer text (a contact message): a block apart, marked as theirs. */
export interface QuotedBlock {
  readonly block: string;
}

export const quoted = (value: string): Quoted => ({ quoted: value });
export const ours = (value: string): Ours => ({ ours: value });
export const quotedBlock = (value: string): QuotedBlock => ({ block: value });

/** Longest name shown in a message: enough for any real one, too short to carry a paragraph of instructions. */
const MAX_QUOTED = 60;

/**
 * The one way a third-party name appears in what the platform sends: on one line (control characters and line
 * breaks become spaces), without quotation marks of its own (so it cannot close ours), cut at 60 characters, between
 * “ ”. Other channels that write names into the platform's sentences use it too.
 */
export function quoteName(value: string): string {
  // eslint-disable-next-line no-control-regex
  let text = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/["“”„‟«»]/g, "'").replace(/\s+/g, ' ').trim();
  if ([...text].length > MAX_QUOTED) text = `${[...text].slice(0, MAX_QUOTED - 1).join('').trimEnd()}…`;
  return `“${text}”`;
}

/**
 * Writes message text: the literal parts as they are, `quoted(…)` values through `quoteName`, `ours(…)` values and
 * numbers as they are. A plain string cannot be interpolated: its author must say whose it is.
 */
export function mailText(strings: TemplateStringsArray, ...values: Array<Quoted | Ours | MailText | number>): MailText {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    const shown = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : 'quoted' in value ? quoteName(value.quoted) : value.ours;
    text += shown + (strings[i + 1] ?? '');
  });
  return text as MailText;
}

/** What a message says: a greeting, paragraphs, optionally a code to type or a button to press. */
export interface MailContent {
  to: string;
  subject: MailText;
  greeting?: MailText;
  paragraphs: Array<MailText | QuotedBlock>;
  /** A code shown large (password recovery). */
  code?: string;
  action?: { label: MailText; url: string };
  /** Said after the action or code (expiry, "ignore if it was not you"). */
  footnotes?: MailText[];
  replyTo?: string;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Writes a message in plain text and HTML from the same content, so both say the same thing. Every value is
 * escaped in the HTML, and a quoted block is set apart (a "> " margin in the text, a blockquote in the HTML).
 */
export function composeMail(content: MailContent): OutgoingMail {
  const text: string[] = [];
  const html: string[] = [];
  if (content.greeting) {
    text.push(content.greeting, '');
    html.push(`<p>${escapeHtml(content.greeting)}</p>`);
  }
  for (const paragraph of content.paragraphs) {
    if (typeof paragraph === 'string') {
      text.push(paragraph, '');
      html.push(`<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
    } else {
      text.push(...paragraph.block.split(/\r?\n/).map((line) => `> ${line}`), '');
      html.push(
        `<blockquote style="margin:0 0 1em;padding:0 0 0 12px;border-left:3px solid #ccc;color:#444">${escapeHtml(paragraph.block).replace(/\r?\n/g, '<br>')}</blockquote>`,
      );
    }
  }
  if (content.code) {
    text.push(`    ${content.code}`, '');
    html.push(`<p style="font-size:28px;font-weight:bold;letter-spacing:6px;font-family:monospace">${escapeHtml(content.code)}</p>`);
  }
  if (content.action) {
    text.push(`${content.action.label}: ${content.action.url}`, '');
    const url = escapeHtml(content.action.url);
    html.push(
      `<p><a href="${url}" style="display:inline-block;padding:10px 18px;background:#1c7ed6;color:#fff;border-radius:4px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>`,
      `<p style="font-size:12px;color:#555">Se o botão não funcionar, copie este endereço no navegador: ${url}</p>`,
    );
  }
  for (const note of content.footnotes ?? []) {
    text.push(note, '');
    html.push(`<p style="font-size:12px;color:#555">${escapeHtml(note)}</p>`);
  }
  text.push('— Sentinela');
  html.push('<p>— Sentinela</p>');
  return {
    to: content.to,
    // A header must stay on one line whatever went into it.
    subject: content.subject.replace(/[\r\n]+/g, ' '),
    text: text.join('\n'),
    html: `<!doctype html><html lang="pt-BR"><body style="font-family:Arial,sans-serif;color:#222">${html.join('\n')}</body></html>`,
    ...(content.replyTo ? { replyTo: content.replyTo } : {}),
  };
}
