import { isPlainObject } from '../values';

/** The registry key of a logical session id `{ id: UUID }` (its bytes in hex), or null if malformed. */
export function sessionKey(lsid: unknown): string | null {
  if (!isPlainObject(lsid)) return null;
  const id = lsid.id as { buffer?: Uint8Array } | undefined;
  if (!id || !(id.buffer instanceof Uint8Array)) return null;
  return Buffer.from(id.buffer).toString('hex');
}
