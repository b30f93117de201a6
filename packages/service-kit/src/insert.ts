import type { Model } from 'mongoose';

/**
 * What `Model.create` would store for `doc`, without building a mongoose document (which cost a
 * sale more CPU than its insert): the schema's defaults, every value cast by the schema (unknown
 * fields dropped; a value of the wrong type throws a ValidationError), and top-level nulls kept
 * (castObject alone drops them). Timestamps are the caller's. For hot inserts through the driver.
 */
export function castForInsert(model: Model<never>, doc: object): Record<string, unknown> {
  const withDefaults = model.applyDefaults({ ...doc }) as Record<string, unknown>;
  const row = model.castObject(withDefaults) as Record<string, unknown>;
  for (const [path, value] of Object.entries(withDefaults)) {
    if (value === null && model.schema.path(path)) row[path] = null;
  }
  return row;
}
