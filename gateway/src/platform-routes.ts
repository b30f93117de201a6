import type { RouteDef } from './route-table';

/**
 * Calls the platform answers rather than a service: backups belong to `npm start`'s own process
 * (packages/devstack/src/backup-agent.ts), which the gateway reaches at BACKUPS_URL (loopback).
 * Without BACKUPS_URL (compose, partial test stacks) they answer 501, like an unbuilt service.
 * `gateway`: the gateway answers it itself before the table (app.ts); listed so the table knows
 * the call (another method gets 405 naming GET) and it is documented with the others.
 */
export const PlatformServices = ['backups'] as const;

export const PlatformRoutes: readonly RouteDef[] = [
  { method: 'GET', path: '/admin/backups', service: 'backups' },
  { method: 'POST', path: '/admin/backups', service: 'backups' },
  { method: 'GET', path: '/admin/backups/:name', service: 'backups' },
  { method: 'GET', path: '/backupStatus', service: 'backups' },
  // "Download all data" (export-all.ts): managers; staff 403.
  { method: 'GET', path: '/export/all', service: 'gateway' },
];
