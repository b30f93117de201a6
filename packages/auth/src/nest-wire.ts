import { randomUUID } from 'node:crypto';
import { JSONCodec, type NatsConnection } from 'nats';

/**
 * Talks to NestJS NATS handlers from plain `nats` code (the gateway, RevocationList): Nest wraps
 * requests as {pattern, data, id}, events as {pattern, data}, and replies as {response} or {err}.
 */
const codec = JSONCodec<unknown>();

/** A failure answered by the remote handler (an RpcException body), with its HTTP status. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export function toRemoteError(err: unknown): RemoteError {
  if (err && typeof err === 'object') {
    const e = err as { status?: unknown; statusCode?: unknown; message?: unknown };
    const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
    const message = typeof e.message === 'string' ? e.message : 'Internal server error';
    return new RemoteError(status, message);
  }
  return new RemoteError(500, typeof err === 'string' ? err : 'Internal server error');
}

/** Request-reply with a Nest @MessagePattern handler. Throws RemoteError (504 on timeout, 503 when nobody listens). */
export async function nestRequest<R>(nc: NatsConnection, subject: string, data: unknown, timeoutMs = 5000): Promise<R> {
  let msg;
  try {
    msg = await nc.request(subject, codec.encode({ pattern: subject, data, id: randomUUID() }), { timeout: timeoutMs });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '503') throw new RemoteError(503, `No service is answering ${subject}.`);
    if (code === 'TIMEOUT') throw new RemoteError(504, `No reply on ${subject} within ${timeoutMs} ms.`);
    throw new RemoteError(503, `NATS request on ${subject} failed: ${(err as Error).message}`);
  }
  const reply = codec.decode(msg.data) as { err?: unknown; response?: unknown };
  if (reply && reply.err !== undefined && reply.err !== null) throw toRemoteError(reply.err);
  return reply?.response as R;
}

/** Publishes an event the way Nest's ClientProxy.emit does, so @EventPattern handlers receive it. */
export function nestEmit(nc: NatsConnection, subject: string, data: unknown): void {
  nc.publish(subject, codec.encode({ pattern: subject, data }));
}

/** The data of an event, whether Nest-wrapped or plain JSON. */
export function decodeEvent<T>(bytes: Uint8Array): T {
  const v = codec.decode(bytes) as { pattern?: unknown; data?: unknown };
  if (v && typeof v === 'object' && 'pattern' in v && 'data' in v) return v.data as T;
  return v as T;
}
