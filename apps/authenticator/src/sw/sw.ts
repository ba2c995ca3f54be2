/// <reference lib="webworker" />
import { languageOf, textsFor } from '../shared/i18n';

/**
 * The app's service worker: keeps the app shell for opening offline (the codes need no network),
 * receives the service's Web Push messages and shows them as notifications, and opens the app on the
 * approval when one is clicked. The push payload is only `{"type":"approval","approvalId":…}`: the
 * app fetches the sign-in's details with a signed request, so nothing sensitive passes the push service.
 */
declare const self: ServiceWorkerGlobalScope;

// written by the build (bundle.config.js): the shell's files, and a version that changes with them
const SHELL = '__APP_SHELL__'.split(',');
const CACHE = 'twofold-authenticator-__APP_VERSION__';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((file) => new Request(new URL(file, self.registration.scope), { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => key.startsWith('twofold-authenticator-') && key !== CACHE).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // only the app's own files: the device protocol's requests go to the network untouched
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  if (request.mode === 'navigate') {
    // the page itself: fresh when online, the cached shell offline
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(new URL('./', self.registration.scope).href)) ?? Response.error()),
    );
    return;
  }
  event.respondWith(caches.match(request, { ignoreSearch: true }).then((cached) => cached ?? fetch(request)));
});

interface ApprovalPush {
  type: 'approval';
  approvalId: string;
}

function approvalOf(data: PushMessageData | null): ApprovalPush | null {
  try {
    const message = data?.json() as Partial<ApprovalPush> | undefined;
    return message?.type === 'approval' && typeof message.approvalId === 'string' ? (message as ApprovalPush) : null;
  } catch {
    return null;
  }
}

self.addEventListener('push', (event) => {
  const approval = approvalOf(event.data);
  const t = textsFor(languageOf(self.navigator.language));
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // an open app fetches the approval at once
      for (const client of windows) client.postMessage({ type: 'approval', approvalId: approval?.approvalId ?? null });
      // a push must show something (userVisibleOnly), even one we cannot read
      await self.registration.showNotification(t.notificationTitle, {
        body: t.notificationBody,
        tag: approval ? `approval-${approval.approvalId}` : 'approval',
        icon: new URL('icon-192.png', self.registration.scope).href,
        data: { approvalId: approval?.approvalId ?? null },
        requireInteraction: true,
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const approvalId = (event.notification.data as { approvalId?: string | null } | null)?.approvalId ?? null;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url.startsWith(self.registration.scope));
      if (open) {
        open.postMessage({ type: 'approval', approvalId });
        await open.focus();
        return;
      }
      await self.clients.openWindow(new URL(approvalId ? `./#approval=${approvalId}` : './', self.registration.scope).href);
    })(),
  );
});
