import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { IncomingEvent, IncomingRequest } from '@nestjs/microservices';
import { NatsRequestJSONDeserializer } from '@nestjs/microservices/deserializers';
import { connect, type NatsConnection } from 'nats';
import { nestEmit, nestRequest, RemoteError } from '@bahi/auth';
import type { PayloadOf, ReplyOf, Subject } from '@bahi/contracts';
import { natsConnectOptions, SERVICE_CONFIG, type ServiceConfig } from './config';
import { stripBidiDeep } from './text';

/** Injection token of the service's plain `nats` connection (requests, events, revocations, health). */
export const NATS_CONNECTION = 'BAHI_NATS_CONNECTION';

export function connectNats(cfg: ServiceConfig): Promise<NatsConnection> {
  // noAsyncTraces: a request would otherwise capture two stack traces (an Error each) in case it
  // fails; our failures carry their own messages (subject, timeout), and a scan is such a request.
  return connect({ ...natsConnectOptions(cfg), name: cfg.service, maxReconnectAttempts: -1, noAsyncTraces: true });
}

/** A failed request (the remote handler's RpcException, no responder: 503, timeout: 504) as the HttpException to answer with. */
export function remoteToHttp(err: RemoteError): HttpException {
  return new HttpException(err.message, err.status >= 400 && err.status < 600 ? err.status : 500);
}

/**
 * Typed request-reply and events over NATS. Every request has a timeout (default from config,
 * 5 s -> 504) and a remote RpcException({status, message}) comes back as the same HttpException.
 *
 * Requests go out on the service's plain connection in Nest's wire format, answered by the other
 * services' @MessagePattern handlers. Nest's own ClientProxy subscribes a fresh reply inbox for
 * every request (SUB, PUB, UNSUB: three messages and a subscription change in nats-server per
 * call); `nats`' request shares one inbox per connection, one message per call. On the counter
 * every scan is such a call.
 */
@Injectable()
export class NatsClient {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly cfg: ServiceConfig,
  ) {}

  async send<S extends Subject>(subject: S, payload: PayloadOf<S>, opts: { timeoutMs?: number } = {}): Promise<ReplyOf<S>> {
    const ms = opts.timeoutMs ?? this.cfg.natsTimeoutMs;
    try {
      return await nestRequest<ReplyOf<S>>(this.nc, subject, payload, ms);
    } catch (err) {
      throw err instanceof RemoteError ? remoteToHttp(err) : err;
    }
  }

  /** Publishes an event (buffered by the connection, flushed in order with what follows). */
  async emit<S extends Subject>(subject: S, payload: PayloadOf<S>): Promise<void> {
    nestEmit(this.nc, subject, payload);
  }
}

/**
 * NATS messages get the same cleaning as HTTP bodies (configureApp strips those before any
 * pipe): whatever a handler saves from a message carries no bidi control either. Used as the
 * NATS server's deserializer (configureApp), so every request and event is cleaned as it is
 * decoded, before the pipes, without a global interceptor (whose rxjs chain and AsyncResource
 * binding every HTTP call paid for while it only acted on NATS messages).
 */
export class StripBidiNatsDeserializer extends NatsRequestJSONDeserializer {
  override deserialize(value: Uint8Array, options?: Record<string, unknown>): IncomingRequest | IncomingEvent {
    const msg = super.deserialize(value, options) as IncomingRequest | IncomingEvent;
    if (msg && typeof msg === 'object') msg.data = stripBidiDeep(msg.data);
    return msg;
  }
}
