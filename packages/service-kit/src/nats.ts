import { GatewayTimeoutException, HttpException, Inject, Injectable, type OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { connect, type NatsConnection } from 'nats';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { PayloadOf, ReplyOf, Subject } from '@bahi/contracts';
import { SERVICE_CONFIG, type ServiceConfig } from './config';

/** Injection token of the Nest NATS ClientProxy (registered once by BahiServiceModule). */
export const NATS_CLIENT = 'BAHI_NATS_CLIENT';
/** Injection token of a plain `nats` connection (revocations, health). */
export const NATS_CONNECTION = 'BAHI_NATS_CONNECTION';

export function connectNats(cfg: ServiceConfig): Promise<NatsConnection> {
  return connect({ servers: cfg.natsUrl, name: `${cfg.service}-raw`, maxReconnectAttempts: -1 });
}

/** Turns what a remote handler or the transport threw into the HttpException the caller answers with. */
export function remoteToHttp(err: unknown, subject: string, timeoutMs: number): HttpException {
  if (err instanceof HttpException) return err;
  if (err instanceof TimeoutError) return new GatewayTimeoutException(`No reply on ${subject} within ${timeoutMs} ms.`);
  // Nest's NATS client reports "no responders" as an EmptyResponseException (not exported by the package).
  if (err instanceof Error && err.constructor.name === 'EmptyResponseException') {
    return new ServiceUnavailableException(`No service is answering ${subject}.`);
  }
  if (err && typeof err === 'object') {
    const e = err as { status?: unknown; message?: unknown; code?: unknown };
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 600) {
      return new HttpException(typeof e.message === 'string' ? e.message : 'Remote call failed', e.status);
    }
    const msg = typeof e.message === 'string' ? e.message : '';
    if (e.code === '503' || /no responders/i.test(msg)) return new ServiceUnavailableException(`No service is answering ${subject}.`);
    if (e.status === 'error' && msg) return new HttpException(msg, 500);
  }
  return new HttpException('Internal server error', 500);
}

/**
 * Typed request-reply and events over NATS. Every request has a timeout (default from config,
 * 5 s -> 504) and a remote RpcException({status, message}) comes back as the same HttpException.
 */
@Injectable()
export class NatsClient implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject(SERVICE_CONFIG) private readonly cfg: ServiceConfig,
  ) {}

  async send<S extends Subject>(subject: S, payload: PayloadOf<S>, opts: { timeoutMs?: number } = {}): Promise<ReplyOf<S>> {
    const ms = opts.timeoutMs ?? this.cfg.natsTimeoutMs;
    try {
      return await firstValueFrom(this.client.send<ReplyOf<S>, PayloadOf<S>>(subject, payload).pipe(timeout(ms)));
    } catch (err) {
      throw remoteToHttp(err, subject, ms);
    }
  }

  /** Publishes an event; resolves once handed to NATS. */
  async emit<S extends Subject>(subject: S, payload: PayloadOf<S>): Promise<void> {
    await firstValueFrom(this.client.emit(subject, payload), { defaultValue: undefined });
  }

  async onApplicationShutdown() {
    await this.client.close();
  }
}
