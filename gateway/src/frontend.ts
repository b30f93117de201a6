import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';

export interface FrontendOptions {
  /** The shell's build output (index.html and its assets). */
  shellDir: string;
  /** Folder holding one folder per remote, each built into `<name>/dist`. */
  remotesDir: string;
  /** Explicit manifest URLs per remote name (from REMOTE_<NAME>_URL); they win over local builds. */
  remoteUrls: Record<string, string>;
}

/** Entry files are not content-hashed, so browsers must revalidate them every time. */
const ENTRY_FILES = new Set(['index.html', 'remoteEntry.js', 'mf-manifest.json', 'mf-stats.json']);

function setEntryHeaders(res: Response, file: string): void {
  if (ENTRY_FILES.has(path.basename(file))) res.setHeader('Cache-Control', 'no-cache');
}

/** Remotes built locally: every `<remotesDir>/<name>/dist` holding a manifest or entry. */
export function localRemotes(remotesDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(remotesDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^[a-z0-9][a-z0-9_-]*$/i.test(n))
    .filter(
      (n) =>
        fs.existsSync(path.join(remotesDir, n, 'dist', 'mf-manifest.json')) ||
        fs.existsSync(path.join(remotesDir, n, 'dist', 'remoteEntry.js')),
    )
    .sort();
}

export function remotesManifest(opts: FrontendOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of localRemotes(opts.remotesDir)) out[name] = `/remotes/${name}/mf-manifest.json`;
  for (const [name, url] of Object.entries(opts.remoteUrls)) out[name] = url;
  return out;
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bahi</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto">
<h1>Bahi</h1>
<p>The frontend is not built yet. Run <code>npm run build</code> (or <code>npm start</code>) and reload.</p>
<p>The API is available under <code>/api</code>; see <a href="/api/health">/api/health</a>.</p>
</body></html>`;

/** Static hosting of the shell and the remotes, with the shell's SPA fallback. */
export function mountFrontend(app: Express, opts: FrontendOptions): void {
  app.get('/remotes.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache, no-store, must-revalidate');
    res.json(remotesManifest(opts));
  });

  // /remotes/<name>/... from <remotesDir>/<name>/dist; unknown remote files are plain 404s.
  app.use('/remotes/:name', (req: Request, res: Response, next) => {
    const name = String(req.params.name);
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) return res.status(404).end();
    const dir = path.join(opts.remotesDir, name, 'dist');
    express.static(dir, { index: false, fallthrough: false, setHeaders: setEntryHeaders })(req, res, (err?: unknown) => {
      if (err) return res.status(404).type('text/plain').send('Not found');
      next();
    });
  });

  const indexFile = path.join(opts.shellDir, 'index.html');
  app.use(express.static(opts.shellDir, { index: false, setHeaders: setEntryHeaders }));

  // Client-side routes (/salesList/bill/3, /admin, ...) get the shell; file-like paths stay 404.
  app.use((req: Request, res: Response, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (path.posix.basename(req.path).includes('.')) return next();
    if (!fs.existsSync(indexFile)) {
      res.status(503).setHeader('Cache-Control', 'no-cache');
      return res.type('html').send(NOT_BUILT);
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });
}
