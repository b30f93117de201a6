// English and Hindi for every screen. One i18next instance (shared as a federation singleton, like
// react) with ICU messages (./icu: the syntax of i18next-icu at a fifth of its size); each workspace registers a loader for its namespace, and the backend
// below loads a namespace only in the active language (the other one only after a switch).
import i18next, { type BackendModule, type ReadCallback, type i18n as I18n } from 'i18next';
import { initReactI18next, useTranslation, Trans } from 'react-i18next';
import { useSyncExternalStore } from 'react';
import { icuFormat } from './icu';
import { matchServerMessage, type ServerCatalogue } from './server';

export { useTranslation, Trans };
export type { ServerCatalogue };

export type Language = 'en' | 'hi';
export const LANGUAGES: readonly Language[] = ['en', 'hi'];
/** Each language's own name, as the switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };
/** Where the browser remembers the last language used (the login page speaks it before anyone signs in). */
export const LANGUAGE_STORAGE_KEY = 'bahi.language';

type Loader = (lng: Language) => Promise<unknown>;
const loaders = new Map<string, Loader>();
// Reads that came before their namespace was registered (a remote's module still loading).
const waiting = new Map<string, Array<() => void>>();
const WAIT_FOR_REGISTER_MS = 15_000;

export function isLanguage(v: unknown): v is Language {
  return v === 'en' || v === 'hi';
}

/** The JSON module's object (a dynamic import of JSON gives `{ default }` under some bundlers). */
function catalogueOf(mod: unknown): Record<string, unknown> {
  const m = mod as { default?: unknown } | null;
  const data = m && typeof m === 'object' && 'default' in m && m.default && typeof m.default === 'object' ? m.default : mod;
  return (data ?? {}) as Record<string, unknown>;
}

function whenRegistered(ns: string): Promise<Loader | undefined> {
  const loader = loaders.get(ns);
  if (loader) return Promise.resolve(loader);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(loaders.get(ns)), WAIT_FOR_REGISTER_MS);
    // Node (tests, server rendering): a namespace nobody registers must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    const list = waiting.get(ns) ?? [];
    list.push(() => {
      clearTimeout(timer);
      resolve(loaders.get(ns));
    });
    waiting.set(ns, list);
  });
}

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const lng: Language = isLanguage(language) ? language : 'en';
    whenRegistered(namespace)
      .then((loader) => (loader ? loader(lng) : {}))
      .then((mod) => callback(null, catalogueOf(mod) as never))
      .catch((err: unknown) => callback(err as Error, false));
  },
};

/** The language to start in: the one last used on this browser, else the browser's if Hindi, else English. */
export function initialLanguage(): Language {
  try {
    const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(LANGUAGE_STORAGE_KEY) : null;
    if (isLanguage(saved)) return saved;
  } catch {
    // storage blocked: fall through to the browser's language
  }
  const langs = typeof navigator !== 'undefined' ? [...(navigator.languages ?? []), navigator.language] : [];
  return langs.some((l) => typeof l === 'string' && /^hi\b/i.test(l)) ? 'hi' : 'en';
}

/** The one shared i18next instance (non-React code: `i18n.t('sales:rules.quantity')`). */
export const i18n: I18n = i18next.createInstance();

i18n
  // Plural rules per language, digits and grouping Indian in both (hi-IN keeps Latin digits).
  .use(icuFormat((lng) => (lng === 'hi' ? 'hi-IN' : 'en-IN')))
  .use(backend)
  .use(initReactI18next);

void i18n.init({
  lng: initialLanguage(),
  supportedLngs: ['en', 'hi'],
  // No fallback language: a fallback would load the other language's catalogues too. The check in
  // npm test keeps both languages' keys the same, so nothing falls back.
  fallbackLng: false,
  load: 'currentOnly',
  ns: [],
  defaultNS: false,
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  returnNull: false,
  // Re-render on a language switch only: binding 'loaded'/'added' would hand every component a new
  // `t` whenever any area's catalogue arrives, re-running effects that list `t` (reloading forms).
  // Components that don't suspend re-render by themselves once their namespaces are in.
  react: { useSuspense: true, bindI18n: 'languageChanged', bindI18nStore: '' },
  initAsync: true,
});

/**
 * Registers the loader of a namespace's catalogues; call once at the top of a workspace's exposed
 * module: `registerCatalogue('sales', (lng) => import(`./locales/${lng}.json`))`.
 */
export function registerCatalogue(ns: string, load: (lng: Language) => Promise<unknown>): void {
  if (loaders.has(ns)) return;
  loaders.set(ns, load);
  const list = waiting.get(ns);
  waiting.delete(ns);
  list?.forEach((wake) => wake());
}

/** The namespaces registered so far: the shell loads the ones a remote's module registers before rendering it. */
export function registeredNamespaces(): string[] {
  return [...loaders.keys()];
}

function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

function applyDocumentLanguage(lng: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
applyDocumentLanguage(currentLanguage());
i18n.on('languageChanged', (lng) => {
  if (isLanguage(lng)) applyDocumentLanguage(lng);
  if (lng === 'hi') soonLoadServerMessages();
});

/**
 * Service messages are translated only in Hindi (English shows the service's own text). Their
 * catalogue (~15 kB) stays off the first screen's load: it is fetched at the first key or tap, or a
 * few seconds after Hindi starts, well before a reply can carry a message.
 */
function soonLoadServerMessages(): void {
  if (typeof window === 'undefined') return void i18n.loadNamespaces('server');
  const load = () => {
    window.removeEventListener('keydown', load, true);
    window.removeEventListener('pointerdown', load, true);
    clearTimeout(timer);
    if (currentLanguage() === 'hi') void i18n.loadNamespaces('server');
  };
  window.addEventListener('keydown', load, true);
  window.addEventListener('pointerdown', load, true);
  const timer = setTimeout(load, 4000);
}
if (currentLanguage() === 'hi') soonLoadServerMessages();

type Persister = (lng: Language) => Promise<unknown>;
let persister: Persister | null = null;

/** The shell installs how a language is remembered on the server (PUT /profile/language). */
export function setLanguagePersister(fn: Persister | null): void {
  persister = fn;
}

function remember(lng: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // storage blocked: the server still remembers it for the signed-in user
  }
}

/**
 * Switches every open screen to `lng` at once (no reload): i18next's language, `<html lang>`, this
 * browser's memory and, through the persister the shell installs, the user's language on the server.
 */
export async function setLanguage(lng: Language): Promise<void> {
  await applyLanguage(lng);
  if (persister) await persister(lng);
}

/** Like setLanguage but without telling the server (the shell applies the language the server sent). */
export async function applyLanguage(lng: Language): Promise<void> {
  if (!isLanguage(lng)) throw new Error(`Unknown language: ${String(lng)}`);
  remember(lng);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
  else applyDocumentLanguage(lng);
}

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

/** The active language; the component re-renders when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
}

// The services' messages (namespace `server`, owned here): loaded only when Hindi is active.
registerCatalogue('server', (lng) => (lng === 'hi' ? import('./server/hi.json') : import('./server/en.json')));

/**
 * A service's message as the user should read it: unchanged in English; in Hindi the catalogue's
 * translation of the exact text or of a pattern it matches, else the service's own text.
 */
export function translateServerMessage(message: string): string {
  if (currentLanguage() !== 'hi' || !message) return message;
  const catalogue = i18n.getResourceBundle('hi', 'server') as ServerCatalogue | undefined;
  if (!catalogue) {
    // Not here yet: load it; the alert re-renders in Hindi when it arrives.
    void i18n.loadNamespaces('server');
    return message;
  }
  return matchServerMessage(catalogue, message) ?? message;
}
