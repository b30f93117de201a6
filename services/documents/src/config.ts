export const DOCUMENTS_CONFIG = Symbol('DOCUMENTS_CONFIG');

export interface DocumentsConfig {
  chromePath: string;
  /** identity's internal base URL, for the company logo bytes. */
  identityUrl: string;
  concurrency: number;
  queueLimit: number;
  renderTimeoutMs: number;
  restartAfter: number;
  /** The shop's public address for share links (`BAHI_PUBLIC_URL`, e.g. https://bahi.example.in); empty: the gateway's Host of the request. */
  publicUrl: string;
  /** Days a share link's view log is kept (`BAHI_SHARE_VIEW_RETENTION_DAYS`, default 400); older views are pruned. */
  shareViewRetentionDays: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got '${raw}'.`);
  return n;
}

/** Documents' own settings (README "Configuration"). */
export function loadDocumentsConfig(env: NodeJS.ProcessEnv = process.env): DocumentsConfig {
  return {
    chromePath: env.CHROME_PATH || '/usr/bin/chromium',
    identityUrl: (env.IDENTITY_URL || 'http://127.0.0.1:3001').replace(/\/+$/, ''),
    concurrency: positiveInt(env, 'DOCUMENTS_CONCURRENCY', 2),
    queueLimit: positiveInt(env, 'DOCUMENTS_QUEUE_LIMIT', 20),
    renderTimeoutMs: positiveInt(env, 'DOCUMENTS_RENDER_TIMEOUT_MS', 15_000),
    restartAfter: positiveInt(env, 'DOCUMENTS_RESTART_AFTER', 200),
    publicUrl: (env.BAHI_PUBLIC_URL || '').replace(/\/+$/, ''),
    shareViewRetentionDays: positiveInt(env, 'BAHI_SHARE_VIEW_RETENTION_DAYS', 400),
  };
}
