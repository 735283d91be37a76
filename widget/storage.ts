/**
 * sessionStorage and localStorage throw in sandboxed frames and some private modes: every read
 * and write goes through here and degrades to "nothing stored".
 */
type Area = 'session' | 'local';

const area = (which: Area): Storage | undefined => {
  try {
    return which === 'session' ? sessionStorage : localStorage;
  } catch {
    return undefined;
  }
};

/** The value stored under `key`, in the tab's sessionStorage unless `which` says 'local'. */
export function readJson<T>(key: string, which: Area = 'session'): T | undefined {
  try {
    const raw = area(which)?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** False when it could not be written (full or forbidden): the feature that needed it degrades, the page does not break. */
export function writeJson(key: string, value: unknown, which: Area = 'session'): boolean {
  try {
    area(which)!.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
