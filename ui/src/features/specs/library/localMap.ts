// A map of small values kept in localStorage under one key, shared by every component that reads
// it: a change made in one place (a row's title, an archived spec) shows everywhere at once, and
// in another window of the app through the `storage` event.
import { loadJson, saveJson } from "../../../lib/storage";

export interface LocalMap<T> {
  /** The whole map (the same object until it changes, as useSyncExternalStore needs). */
  all(): Readonly<Record<string, T>>;
  get(id: string): T | undefined;
  /** Sets `id` to `value`, or removes it when `value` is undefined. */
  set(id: string, value: T | undefined): void;
  subscribe(listener: () => void): () => void;
  /** Reads the storage again (tests, another window). */
  reload(): void;
}

export function localMap<T>(key: string, isValue: (v: unknown) => v is T): LocalMap<T> {
  const listeners = new Set<() => void>();
  let cache: Record<string, T> | null = null;

  const read = (): Record<string, T> => {
    const raw = loadJson(key, (v): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)) ?? {};
    // A value that does not have the expected shape (an older version, a hand edit) is dropped.
    return Object.fromEntries(Object.entries(raw).filter((e): e is [string, T] => isValue(e[1])));
  };
  const all = () => (cache ??= read());
  const notify = () => listeners.forEach((l) => l());
  const onStorage = (e: StorageEvent) => {
    if (e.key === key) {
      cache = null;
      notify();
    }
  };

  return {
    all,
    get: (id) => all()[id],
    set(id, value) {
      const rest = Object.fromEntries(Object.entries(all()).filter(([k]) => k !== id));
      cache = value === undefined ? rest : { ...rest, [id]: value };
      saveJson(key, cache);
      notify();
    },
    subscribe(listener) {
      if (listeners.size === 0) window.addEventListener("storage", onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener("storage", onStorage);
      };
    },
    reload() {
      cache = null;
      notify();
    },
  };
}
