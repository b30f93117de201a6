import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { i18n, registeredNamespaces } from '@bahi/i18n';
import { REMOTE_FAILED } from './fallbackPlugin';

export class RemoteLoadError extends Error {}

let remoteList: Promise<Record<string, string>> | null = null;
const registered = new Map<string, string>();
const components = new Map<string, ComponentType>();

/** /remotes.json: { "<name>": "<url of its mf-manifest.json>" }, read at run time. */
function fetchRemoteList(fresh: boolean): Promise<Record<string, string>> {
  if (!remoteList || fresh) {
    remoteList = fetch('/remotes.json', { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}));
  }
  return remoteList;
}

/** Starts reading /remotes.json while the shell still waits for the user (the first screen needs it next). */
export function prefetchRemoteList(): void {
  void fetchRemoteList(false);
}

/** The component a remote exposes as `module` ('./AdminApp'); `retry` clears every cache first. */
export async function loadRemoteComponent(name: string, module: string, retry = false): Promise<ComponentType> {
  const id = `${name}/${module.replace(/^\.\//, '')}`;
  if (!retry && components.has(id)) return components.get(id)!;
  const list = await fetchRemoteList(retry);
  const url = list[name];
  if (!url) throw new RemoteLoadError(`The ${name} module is not deployed.`);
  const entry = new URL(url, window.location.origin).href;
  if (retry || registered.get(name) !== entry) {
    // force drops the cached manifest/container so a redeployed or recovered remote loads again.
    registerRemotes([{ name, entry }], { force: registered.has(name) });
    registered.set(name, entry);
  }
  const namespacesBefore = registeredNamespaces();
  let mod: Record<string, unknown> | null;
  try {
    mod = await loadRemote<Record<string, unknown>>(id);
  } catch (err) {
    console.warn(`remote ${id} failed to load`, err);
    throw new RemoteLoadError('Its files could not be reached.');
  }
  // The runtime plugin already logged the technical reason.
  if (!mod || mod[REMOTE_FAILED]) throw new RemoteLoadError('Its files could not be reached.');
  const comp = (mod.default ?? mod) as ComponentType;
  if (typeof comp !== 'function' && typeof comp !== 'object') throw new RemoteLoadError(`${id} has no default export`);
  // The module registered its catalogues as it ran: load them (active language) before its first
  // render. Rendering first would suspend it on them, and React holds back the reveal of suspended
  // content for 300 ms after a fallback shows: most of the cart's first-load time after the languages.
  const added = registeredNamespaces().filter((ns) => !namespacesBefore.includes(ns));
  if (added.length) await i18n.loadNamespaces(added);
  components.set(id, comp);
  return comp;
}

export function cachedRemoteComponent(name: string, module: string): ComponentType | undefined {
  return components.get(`${name}/${module.replace(/^\.\//, '')}`);
}
