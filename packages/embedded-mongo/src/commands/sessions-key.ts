import { MongoError } from '../errors';
import { isPlainObject, typeName } from '../values';

/** The registry key of a logical session id `{ id: UUID }` (its bytes in hex), or null if malformed. */
export function sessionKey(lsid: unknown): string | null {
  if (!isPlainObject(lsid)) return null;
  const id = lsid.id as { buffer?: Uint8Array } | undefined;
  if (!id || !(id.buffer instanceof Uint8Array)) return null;
  return Buffer.from(id.buffer).toString('hex');
}

/** The session key of a command's `lsid`: null when absent, TypeMismatch when it is not `{ id: UUID }`. */
export function commandSessionKey(lsid: unknown): string | null {
  if (lsid === undefined) return null;
  if (!isPlainObject(lsid)) throw new MongoError('TypeMismatch', `BSON field 'lsid' is the wrong type '${typeName(lsid)}', expected type 'object'`);
  const key = sessionKey(lsid);
  if (!key) throw new MongoError('TypeMismatch', `BSON field 'lsid.id' is the wrong type '${typeName(lsid.id)}', expected type 'binData'`);
  return key;
}
