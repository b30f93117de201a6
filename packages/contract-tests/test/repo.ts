import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');

export const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
export const exists = (rel: string) => fs.existsSync(path.join(ROOT, rel));

/** Folders with a package.json under a workspace folder (services, frontends). */
export function workspacesIn(dir: string): { name: string; dir: string; pkg: string }[] {
  return fs
    .readdirSync(path.join(ROOT, dir))
    .filter((d) => exists(`${dir}/${d}/package.json`))
    .sort()
    .map((d) => ({ name: d, dir: `${dir}/${d}`, pkg: JSON.parse(read(`${dir}/${d}/package.json`)).name as string }));
}

/** Source files (no tests) under a folder, relative to the repository root. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(r);
    }
  };
  if (exists(dir)) walk(dir);
  return out;
}
