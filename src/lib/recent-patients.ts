import { readStorage, removeStorage, tokenArea, writeStorage, type StorageArea } from './auth-storage';

/** A patient as the "Recently opened" list names them. */
export type RecentPatient = { id: string; name: string; secondName: string };

const KEY_PREFIX = 'recentPatients:';
export const RECENT_PATIENTS_LIMIT = 5;
const AREAS: StorageArea[] = ['localStorage', 'sessionStorage'];

const keyOf = (userId: string) => `${KEY_PREFIX}${userId}`;

const isRecentPatient = (value: unknown): value is RecentPatient =>
  typeof value === 'object' &&
  value !== null &&
  ['id', 'name', 'secondName'].every((field) => typeof (value as Record<string, unknown>)[field] === 'string');

/**
 * The last patients this user opened, newest first. Kept per user beside the token (localStorage when the
 * session is remembered, else sessionStorage) and forgotten with the session (`forgetRecentPatients`).
 */
export function recentPatients(userId: string): RecentPatient[] {
  const area = tokenArea();
  if (!area) return [];
  try {
    const stored: unknown = JSON.parse(readStorage(area, keyOf(userId)) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isRecentPatient).slice(0, RECENT_PATIENTS_LIMIT) : [];
  } catch {
    return [];
  }
}

/** Puts the patient first (once) in the user's list; a later name change replaces the stored one. */
export function rememberPatient(userId: string, patient: RecentPatient): void {
  const area = tokenArea();
  if (!area) return;
  const { id, name, secondName } = patient;
  const list = [{ id, name, secondName }, ...recentPatients(userId).filter((recent) => recent.id !== id)];
  writeStorage(area, keyOf(userId), JSON.stringify(list.slice(0, RECENT_PATIENTS_LIMIT)));
}

/** Drops a patient that is gone (deleted, or no longer in the active list). */
export function forgetRecentPatient(userId: string, patientId: string): void {
  const area = tokenArea();
  if (!area) return;
  writeStorage(area, keyOf(userId), JSON.stringify(recentPatients(userId).filter((recent) => recent.id !== patientId)));
}

/** Every user's list, in both storages: at the end of a session. */
export function forgetRecentPatients(): void {
  for (const area of AREAS) {
    try {
      const storage = window[area];
      const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
      for (const key of keys) if (key?.startsWith(KEY_PREFIX)) removeStorage(area, key);
    } catch {
      // storage unavailable: nothing was kept
    }
  }
}
