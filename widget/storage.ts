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

export function readJson<T>(which: Area, key: string): T | undefined {
  try {
    const raw = area(which)?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** False when it could not be written (full or forbidden): the feature that needed it degrades, the page does not break. */
export function writeJson(which: Area, key: string, value: unknown): boolean {
  try {
    area(which)!.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
