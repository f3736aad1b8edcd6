// Small JSON values kept in localStorage (drafts, recent items). Never throws: a full or
// unavailable storage just means nothing is kept.

export function loadJson<T>(key: string, check: (v: unknown) => v is T): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (raw === null) return null;
    const v: unknown = JSON.parse(raw);
    return check(v) ? v : null;
  } catch {
    return null;
  }
}

export function saveJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or unavailable: the value lives in memory only.
  }
}

/**
 * True the first time it is asked for `key` in this run of the app (sessionStorage lasts as
 * long as the window, so a reload of the page is the same run), false after that.
 */
export function firstTimeThisRun(key: string): boolean {
  try {
    if (window.sessionStorage.getItem(key) !== null) return false;
    window.sessionStorage.setItem(key, "1");
    return true;
  } catch {
    return false;
  }
}

export function removeKey(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to do.
  }
}

/** The keys kept in localStorage that start with `prefix` (none when storage is unavailable). */
export function storedKeys(prefix: string): string[] {
  try {
    const out: string[] = [];
    for (let i = 0; i < window.localStorage.length; i += 1) {
      const key = window.localStorage.key(i);
      if (key?.startsWith(prefix)) out.push(key);
    }
    return out;
  } catch {
    return [];
  }
}
