/**
 * The admin key, for this browser tab only: sessionStorage ends with the tab, is not shared with
 * other tabs, and is never written to localStorage, a cookie or a URL.
 */
const STORE = 'rf-console-admin-key';

export function adminKey(): string | null {
  try {
    return sessionStorage.getItem(STORE);
  } catch {
    return memory;
  }
}

export function rememberAdminKey(key: string): void {
  memory = key;
  try {
    sessionStorage.setItem(STORE, key);
  } catch {
    // storage off: the key lasts as long as the page
  }
}

export function forgetAdminKey(): void {
  memory = null;
  try {
    sessionStorage.removeItem(STORE);
  } catch {
    // nothing stored
  }
}

let memory: string | null = null;
