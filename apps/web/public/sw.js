/* global self */
/*
 * Sentinela's service worker (ADR 22): shows the alarm messages that arrive by web push and, on a click, opens the
 * device history they link to. It caches nothing: the app itself is served fresh by the server.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Sentinela';
  const tag = typeof data.tag === 'string' ? data.tag : undefined;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: '/favicon.svg',
      lang: 'pt-BR',
      // The end of an alarm replaces its opening, and still rings.
      tag,
      renotify: Boolean(tag),
      requireInteraction: true,
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

/** Only this app's own pages open from a notification (the link's path, on this origin). */
function ownPage(url) {
  try {
    const target = new URL(url, self.location.origin);
    return new URL(target.pathname + target.search, self.location.origin).href;
  } catch {
    return new URL('/', self.location.origin).href;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = ownPage(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === target);
      if (open) return open.focus();
      return self.clients.openWindow(target);
    })(),
  );
});
