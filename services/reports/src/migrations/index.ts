import type { Migration } from '@bahi/service-kit';

/**
 * The data versions of reports (its database): run once each, in order, before it answers
 * (packages/service-kit/src/migrations.ts). Append, never renumber; each `up` idempotent.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'baseline',
    // The data of the releases before data versions: nothing to change, the version is recorded.
    up: async () => undefined,
  },
  {
    version: 2,
    name: 'stream checkpoints',
    // `seen_events` (a row per event forever) gives way to per-stream checkpoints and a window of
    // recent ids; the new data version rebuilds the read model, which makes both.
    up: async ({ db }) => {
      if (await db.listCollections({ name: 'seen_events' }, { nameOnly: true }).hasNext()) await db.collection('seen_events').drop();
    },
  },
];
