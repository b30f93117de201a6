/**
 * Pipeline stages and expressions that generate values from their arguments, checked and bounded:
 * unchecked, one command (`{ $sample: {} }`, `$densify` with step 0, `$range: [0, 2e9]`) grows an
 * array until V8 aborts the whole process, an error no try/catch can answer, or (`$concatArrays`
 * doubling in `$reduce`) holds the event loop for seconds.
 */
import { evalExpr } from 'mingo/core';
import type { Iterator as LazyIterator } from 'mingo/lazy';
import { Lazy } from 'mingo/lazy';
import { $concatArrays as mingoConcatArrays, $range as mingoRange } from 'mingo/operators/expression';
import { $densify as mingoDensify } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { MongoError } from './errors';
import { isPlainObject, typeName, type Doc } from './values';

/** MongoDB's internalQueryMaxAllowedDensifyDocs. */
export const MAX_DENSIFY_DOCS = 500_000;
/** Elements one `$range` or `$concatArrays` may produce (MongoDB bounds them by memory, about this many values). */
export const MAX_ARRAY_VALUES = 5_000_000;

/** `$sample: { size }`: a random subset without replacement (mingo draws with replacement and never stops on a bad size). */
function $sample(coll: LazyIterator, expr: unknown): LazyIterator {
  if (!isPlainObject(expr)) throw new MongoError('FailedToParse', `the $sample stage specification must be an object, found ${typeName(expr)}`);
  for (const k of Object.keys(expr)) if (k !== 'size') throw new MongoError('FailedToParse', `unrecognized option to $sample: ${k}`);
  const size = expr.size;
  if (typeof size !== 'number' || Number.isNaN(size)) throw new MongoError('TypeMismatch', `size argument to $sample must be a number, found ${typeName(size)}`);
  if (size < 0) throw new MongoError('BadValue', 'size argument to $sample must not be negative');
  return coll.transform((docs: Doc[]) => {
    const out = docs.slice();
    const k = Math.min(out.length, Math.floor(size));
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(Math.random() * (out.length - i));
      [out[i], out[j]] = [out[j], out[i]];
    }
    out.length = k;
    return Lazy(out);
  });
}

/** `$densify` with a positive step, stopping with an error past MAX_DENSIFY_DOCS generated documents. */
function $densify(coll: LazyIterator, expr: unknown, options: Options): LazyIterator {
  const range = isPlainObject(expr) ? expr.range : undefined;
  if (!isPlainObject(range)) throw new MongoError('TypeMismatch', "$densify 'range' must be an object");
  if (typeof range.step !== 'number' || !(range.step > 0)) throw new MongoError('BadValue', "$densify 'range.step' must be a positive number");
  let n = 0;
  return (mingoDensify(coll, expr as never, options) as LazyIterator).map((doc: unknown) => {
    if (++n > MAX_DENSIFY_DOCS) throw new MongoError('BadValue', `$densify would generate more than ${MAX_DENSIFY_DOCS} documents`);
    return doc;
  });
}

/** Already evaluated values, passed on so mingo does not evaluate them again (a `"$x"` string stays a string). */
const literal = (values: unknown[]) => values.map((v) => ({ $literal: v }));

/** `$range` that refuses to build more than MAX_ARRAY_VALUES elements. */
function $range(obj: Doc, expr: unknown, options: Options): unknown {
  if (!Array.isArray(expr) || expr.length < 2 || expr.length > 3) return mingoRange(obj, expr as never, options);
  const args = evalExpr(obj, expr, options) as unknown[];
  const [start, end, step = 1] = args;
  if (typeof start === 'number' && typeof end === 'number' && typeof step === 'number' && step !== 0) {
    const count = Math.ceil((end - start) / step);
    if (count > MAX_ARRAY_VALUES) throw new MongoError('BadValue', `$range would generate ${count} values; at most ${MAX_ARRAY_VALUES} are allowed`);
  }
  return mingoRange(obj, literal(args) as never, options);
}

/** `$concatArrays` that refuses results over MAX_ARRAY_VALUES (doubling an array in `$reduce` stalled the server for seconds). */
function $concatArrays(obj: Doc, expr: unknown, options: Options): unknown {
  const args = evalExpr(obj, expr, options);
  if (!Array.isArray(args)) return mingoConcatArrays(obj, { $literal: args } as never, options);
  let total = 0;
  for (const a of args) if (Array.isArray(a)) total += a.length;
  if (total > MAX_ARRAY_VALUES) throw new MongoError('BadValue', `$concatArrays would produce ${total} values; at most ${MAX_ARRAY_VALUES} are allowed`);
  return mingoConcatArrays(obj, literal(args) as never, options);
}

export const limitedPipelineOps = { $sample, $densify };
export const limitedExpressionOps = { $range, $concatArrays };
