import type { Configuration } from 'webpack';

type ConfigFn = (env: unknown, argv: { mode?: string }) => Configuration;

export function hostConfig(opts: { dir: string; name: string; runtimePlugins?: string[]; title?: string; favicon?: string }): ConfigFn;
export function remoteConfig(opts: { dir: string; name: string; exposes: Record<string, string> }): ConfigFn;
export function sharedModules(dir: string): Record<string, { singleton: boolean; requiredVersion: string | false }>;
