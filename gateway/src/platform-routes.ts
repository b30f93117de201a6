import type { RouteDef } from './route-table';

/**
 * Calls the platform answers rather than a service: backups belong to `npm start`'s own process
 * (packages/devstack/src/backup-agent.ts), which the gateway reaches at BACKUPS_URL (loopback).
 * Without BACKUPS_URL (compose, partial test stacks) they answer 501, like an unbuilt service.
 */
export const PlatformServices = ['backups'] as const;

export const PlatformRoutes: readonly RouteDef[] = [
  { method: 'GET', path: '/admin/backups', service: 'backups' },
  { method: 'POST', path: '/admin/backups', service: 'backups' },
  { method: 'GET', path: '/admin/backups/:name', service: 'backups' },
  { method: 'GET', path: '/backupStatus', service: 'backups' },
];
