import { useSyncExternalStore } from 'react';
import { applyLanguage, isLanguage } from '@bahi/i18n';
import { api, type User } from '@bahi/ui-kit';

// The signed-in user, read once per session from /getUserData and shared through UserProvider.
let current: User | null = null;
const listeners = new Set<() => void>();

export function setUser(user: User | null): void {
  current = user;
  // The language the user chose, remembered on the server, follows them to every browser.
  const language = (user as { language?: unknown } | null)?.language;
  if (isLanguage(language)) void applyLanguage(language);
  listeners.forEach((l) => l());
}

export function getUser(): User | null {
  return current;
}

let inflight: Promise<User> | null = null;

/** Parallel loaders share one request. */
export function fetchUser(): Promise<User> {
  inflight ??= api.get<User | { user: User }>('/getUserData').then(
    (reply) => {
      // identity answers { user }; accept the bare user shape too.
      const user = 'user' in reply && reply.user ? reply.user : (reply as User);
      inflight = null;
      setUser(user);
      return user;
    },
    (err) => {
      inflight = null;
      throw err;
    },
  );
  return inflight;
}

export function useCurrentUser(): User | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
