import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
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
  components.set(id, comp);
  return comp;
}

export function cachedRemoteComponent(name: string, module: string): ComponentType | undefined {
  return components.get(`${name}/${module.replace(/^\.\//, '')}`);
}
