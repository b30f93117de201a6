/**
 * The platform's HTTP answers about backups, on loopback only; the gateway forwards
 * `/api/admin/backups*` and `/api/backupStatus` here (BACKUPS_URL), after its own token check.
 * Backups belong to the platform, not to a service: this runs inside `npm start`'s process, the
 * one that can reach the data folder and the embedded server's root login.
 *
 *   GET  /admin/backups          platform admin: the list, the folders, whether the copy location is there
 *   POST /admin/backups          platform admin: back up now (202; the list shows `running`)
 *   GET  /admin/backups/<name>   platform admin: download one
 *   GET  /backupStatus           admin and managers: why the banner shows, if it does
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { verifyToken } from '@bahi/auth';
import { BACKUP_NAME } from './backup';
import { backupSettings, BackupService } from './backup-schedule';

export interface BackupAgent {
  url: string;
  service: BackupService;
  /** The stack is up: its root URI and the token secret. */
  attach(stack: { mongoUri: string; mongoCredentialsFile?: string; jwtSecret: string; dataDir: string }): void;
  stop(): Promise<void>;
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string })
  .version;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Starts listening at once (answering 503 until `attach`), so the gateway can be told its URL. */
export async function startBackupAgent(opts: {
  rootDir: string;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  log?: (msg: string) => void;
  /** Take the daily backup (npm start); tests leave it off. */
  daily?: boolean;
  now?: () => Date;
}): Promise<BackupAgent> {
  const service = new BackupService({
    dataDir: opts.dataDir,
    rootDir: opts.rootDir,
    settings: backupSettings(opts.env ?? process.env, opts.rootDir),
    log: opts.log,
    now: opts.now,
  });
  let secret: string | null = null;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname.replace(/\/+$/, '');
    // As a service's health: About lists its version, the gateway's /api/health its state.
    if (p === '/health')
      return send(res, 200, {
        status: 'ok',
        info: { app: { service: 'backups', version: VERSION }, backups: { running: service.busy } },
      });
    if (!secret) return send(res, 503, { message: 'Backups are starting; try again in a few seconds.' });
    let claims: { position?: string };
    try {
      claims = verifyToken((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''), secret) as {
        position?: string;
      };
    } catch {
      return send(res, 401, { message: 'Your session has ended. Please log in again.' });
    }
    if (p === '/backupStatus' && req.method === 'GET') {
      if (claims.position !== 'admin' && claims.position !== 'manager')
        return send(res, 403, { message: 'Only a manager or the platform admin sees the backup status.' });
      return send(res, 200, service.warning());
    }
    if (!p.startsWith('/admin/backups')) return send(res, 404, { message: 'Not found.' });
    if (claims.position !== 'admin') return send(res, 403, { message: 'Only the platform admin manages backups.' });
    if (p === '/admin/backups') {
      if (req.method === 'GET') return send(res, 200, service.list());
      if (req.method === 'POST') {
        if (service.busy) return send(res, 409, { message: 'A backup is being made now; wait for it to finish.' });
        service.runNow().catch((err: Error) => (opts.log ?? console.log)(`Backup failed: ${err.message}`));
        return send(res, 202, {
          success: true,
          message: 'The backup has started; it appears in the list once verified.',
        });
      }
      res.setHeader('allow', 'GET, POST');
      return send(res, 405, { message: 'Use GET or POST.' });
    }
    const name = decodeURIComponent(p.slice('/admin/backups/'.length));
    if (req.method !== 'GET') return send(res, 405, { message: 'Use GET.' });
    const file = path.join(service.settings.dir, name);
    if (!BACKUP_NAME.test(name) || !fs.existsSync(file))
      return send(res, 404, { message: `There is no backup named ${name}.` });
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(fs.statSync(file).size),
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    url: `http://127.0.0.1:${port}`,
    service,
    attach(stack) {
      secret = stack.jwtSecret;
      // Only the embedded server has a root login here; with MONGODB_URI backups are mongodump's (README).
      service.attach(stack.mongoCredentialsFile ? stack.mongoUri : null, stack.dataDir);
      const mongoPort = stack.mongoCredentialsFile ? Number(new URL(stack.mongoUri).port) : null;
      fs.writeFileSync(
        path.join(opts.dataDir, 'stack.json'),
        JSON.stringify({ pid: process.pid, mongoPort, backupsUrl: `http://127.0.0.1:${port}` }) + '\n',
      );
      if (opts.daily && stack.mongoCredentialsFile) service.schedule();
    },
    async stop() {
      await service.stop();
      // The gateway keeps idle keep-alive connections open: end them, or close would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      fs.rmSync(path.join(opts.dataDir, 'stack.json'), { force: true });
    },
  };
}
