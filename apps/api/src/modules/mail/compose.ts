import type { OutgoingMail } from './transport';

/** What a message says: a greeting, paragraphs, optionally a code to type or a button to press. */
export interface MailContent {
  to: string;
  subject: string;
  greeting?: string;
  paragraphs: string[];
  /** A code shown large (password recovery). */
  code?: string;
  action?: { label: string; url: string };
  /** Said after the action or code (expiry, "ignore if it was not you"). */
  footnotes?: string[];
  replyTo?: string;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Writes a message in plain text and HTML from the same content, so both say the same thing. Every value is
 * escaped in the HTML: names and messages come from visitors.
 */
export function composeMail(content: MailContent): OutgoingMail {
  const text: string[] = [];
  const html: string[] = [];
  if (content.greeting) {
    text.push(content.greeting, '');
    html.push(`<p>${escapeHtml(content.greeting)}</p>`);
  }
  for (const paragraph of content.paragraphs) {
    text.push(paragraph, '');
    html.push(`<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
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
    subject: content.subject,
    text: text.join('\n'),
    html: `<!doctype html><html lang="pt-BR"><body style="font-family:Arial,sans-serif;color:#222">${html.join('\n')}</body></html>`,
    ...(content.replyTo ? { replyTo: content.replyTo } : {}),
  };
}
