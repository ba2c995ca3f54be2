/**
 * The app's accounts in IndexedDB. Each record keeps its CryptoKey objects as such (IndexedDB stores
 * them by structured clone): the device's signing key and the TOTP key are not extractable, so what
 * is stored is a handle the browser will use for this origin, never key bytes a script could read.
 */
export interface DeviceRecord {
  deviceId: string;
  accountName: string;
  identity: string;
  privateKey: CryptoKey;
  totpKey: CryptoKey;
  digits: number;
  period: number;
  /** the last counter signed: counters only grow */
  lastCounter: number;
  /** the push endpoint the service has for this device, or null */
  pushEndpoint: string | null;
  addedAt: string;
}

const DB_NAME = 'twofold-authenticator';
const STORE = 'devices';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'deviceId' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = action(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

export function allDevices(): Promise<DeviceRecord[]> {
  return run('readonly', (store) => store.getAll() as IDBRequest<DeviceRecord[]>);
}

export async function saveDevice(record: DeviceRecord): Promise<void> {
  await run('readwrite', (store) => store.put(record));
}

export async function removeDevice(deviceId: string): Promise<void> {
  await run('readwrite', (store) => store.delete(deviceId));
}
