import type { Migration } from '@bahi/service-kit';

/**
 * The data versions of documents (its database): run once each, in order, before it answers
 * (packages/service-kit/src/migrations.ts). Append, never renumber; each `up` idempotent.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'baseline',
    // The data of the releases before data versions: nothing to change, the version is recorded.
    up: async () => undefined,
  },
];
