import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** Marks the module errorLoadRemote hands back instead of a remote that failed to load. */
export const REMOTE_FAILED = '__bahiRemoteFailed';

// Runtime plugin: a remote whose manifest or entry cannot be loaded resolves to a marked
// fallback module instead of rejecting, so the shell shows its fallback in that area only.
export default function fallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'bahi-remote-fallback',
    async errorLoadRemote(args) {
      // Only the final 'onLoad' stage returns a module; earlier stages (manifest fetch) let the
      // error travel up to it, so nothing broken is cached.
      if (args.lifecycle !== 'onLoad') return undefined;
      console.warn(`remote "${args.id}" failed to load`, args.error);
      const message = args.error instanceof Error ? args.error.message : String(args.error);
      return { [REMOTE_FAILED]: true, error: message, default: null };
    },
  };
}
