/**
 * A provider's answer that no retry can change (an invalid number, credentials refused, an unknown template): the
 * delivery is recorded as failed at once instead of being retried for 17 minutes. Anything else a sender throws
 * (a 5xx, a timeout, a rate limit, a refused connection) is retried by the delivery job.
 */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}

/** The end of a provider's answer's text worth keeping in the delivery log. */
export function snippet(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A provider's answer as JSON, or null when it is not JSON (a proxy's HTML error page, an empty body). */
export function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
