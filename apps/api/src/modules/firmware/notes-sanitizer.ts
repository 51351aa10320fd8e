import sanitizeHtml from 'sanitize-html';

/**
 * Release notes come from a rich-text editor as HTML and are shown as HTML to every super admin: only formatting
 * survives (what the notes editor can produce). Scripts, styles, event handlers (onerror, onclick…), iframes,
 * forms and javascript:/data: links are dropped; links open in a new tab without handing over the opener.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'hr', 'a'],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // Dropped with their content (what a script or style says is not notes); other unknown tags keep their text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
};

export function sanitizeNotes(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** True when the notes hold no text at all once the tags are gone (an editor's empty "<p></p>"). */
export function notesAreEmpty(html: string): boolean {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() === '';
}
