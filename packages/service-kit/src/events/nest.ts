import { Controller, Inject, type OnApplicationBootstrap, type OnApplicationShutdown, type Type } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { HistoryPageReply, HistoryPageRequest } from '@bahi/contracts';
import type { EventRelay } from './relay';

/** An owner's events provider: its relay runs while the application does. */
export abstract class RelayService implements OnApplicationBootstrap, OnApplicationShutdown {
  abstract readonly relay: EventRelay;

  async onApplicationBootstrap() {
    await this.relay.start();
  }

  async onApplicationShutdown() {
    await this.relay.stop();
  }
}

/** The `<domain>.history.page` handler answering from an owner's relay, for a reports rebuild. */
export function historyHandlers(subject: string, events: Type<RelayService>): Type<unknown> {
  @Controller()
  class HistoryHandlers {
    constructor(@Inject(events) private readonly owner: RelayService) {}

    @MessagePattern(subject)
    page(@Payload() req: HistoryPageRequest): Promise<HistoryPageReply> {
      return this.owner.relay.history(req ?? ({} as HistoryPageRequest));
    }
  }
  return HistoryHandlers;
}
