import { fromBase64Url } from '../shared/bytes';
import { SubscriptionKeys } from '../shared/protocol';
import { pushKey } from './api';

/** The service worker of the app (its scope: the app's folder). */
export function registerWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register('sw.js', { scope: './' }).catch(() => null);
}

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keysOf(subscription: PushSubscription): SubscriptionKeys | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.['p256dh'];
  const auth = json.keys?.['auth'];
  if (!json.endpoint || !p256dh || !auth) return null;
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

/** The browser's subscription as it is now, without asking anything (null: none, or no permission). */
export async function currentSubscription(): Promise<SubscriptionKeys | null> {
  if (!pushSupported() || Notification.permission !== 'granted') return null;
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  return subscription ? keysOf(subscription) : null;
}

/**
 * A Web Push subscription with the service's VAPID key, asking for the permission (call it from a
 * click: some browsers ask only then). Null when the browser has no push, the user said no, or the
 * browser's push service is out of reach: the app then works by being opened.
 */
export async function subscribe(): Promise<SubscriptionKeys | null> {
  if (!pushSupported()) return null;
  try {
    if ((await Notification.requestPermission()) !== 'granted') return null;
    const registration = await navigator.serviceWorker.ready;
    const existing = await registration.pushManager.getSubscription();
    const subscription =
      existing ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(await pushKey()) }));
    return keysOf(subscription);
  } catch {
    return null;
  }
}
