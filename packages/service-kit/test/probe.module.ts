import { randomUUID } from 'node:crypto';
// A tiny service used to test the kit the way a real service uses it.
import { Body, Controller, Get, Module, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { InjectModel, MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import type { Model } from 'mongoose';
import { Subjects, type TokenClaims } from '@bahi/contracts';
import { AllowedBeforePasswordChange, BahiServiceModule, CurrentUser, NatsClient, Positions, Public, SequenceService, Tenant } from '../src';

@Schema({ collection: 'things' })
export class Thing {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) code!: string;
  @Prop({ required: true, min: 0 }) qty!: number;
}
const ThingSchema = SchemaFactory.createForClass(Thing);
ThingSchema.index({ companyId: 1, code: 1 }, { unique: true });

class ThingDto {
  @IsString() @IsNotEmpty() code!: string;
  @IsInt() @Min(0) qty!: number;
}
class SeqDto {
  @IsString() @IsNotEmpty() name!: string;
}
/** A query whose fields may all be absent (most GET calls' queries). */
class OptionalQuery {
  @IsOptional() @IsString() @MaxLength(5, { message: 'note must be at most 5 characters' }) note?: string;
}
/** A query with a required field: an empty one is refused every time. */
class RequiredQuery {
  @IsString({ message: 'q is required' }) @IsNotEmpty({ message: 'q is required' }) q!: string;
}
class LookupDto {
  @IsInt() companyId!: number;
  @IsEmail() email!: string;
}

@Controller()
class ProbeController {
  /** Tells replicas apart: each running copy of the service has its own. */
  private readonly replica = randomUUID();
  private served = 0;

  constructor(
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @InjectModel(Thing.name) private readonly things: Model<Thing>,
  ) {}

  @MessagePattern(Subjects.inventory.productLookup)
  async lookup(@Payload() p: { companyId: number; code: string }) {
    this.served++;
    const productId = Number(p.code);
    if (productId === 404) throw new RpcException({ status: 404, message: `Product ${productId} not found.` });
    if (productId === 500) throw new Error('database password is hunter2');
    if (productId === 999) await new Promise((r) => setTimeout(r, 1500));
    return { productId, companyId: p.companyId, replica: this.replica };
  }

  // Validated through the global pipe even over NATS (inheritAppConfig).
  @MessagePattern(Subjects.identity.userLookup)
  userLookup(@Payload() dto: LookupDto) {
    return { user: null, echo: dto.email };
  }

  /** The last events heard on the probe subject (bidi cleaning of NATS events). */
  readonly heard: unknown[] = [];
  @EventPattern('probe.event.heard')
  hear(@Payload() data: unknown) {
    this.heard.push(data);
  }
  @Get('probe/heard')
  @Public()
  heardEvents() {
    return this.heard;
  }

  private lastQuery?: OptionalQuery;
  @Get('probe/optional-query')
  optionalQuery(@Query() q: OptionalQuery) {
    // Each call must get its own instance: a handler may change what it was given.
    const fresh = q !== this.lastQuery;
    this.lastQuery = q;
    const note = q.note ?? null;
    q.note = 'changed by the handler';
    return { note, instance: q instanceof OptionalQuery, fresh };
  }

  @Get('probe/required-query')
  requiredQuery(@Query() q: RequiredQuery) {
    return { q: q.q };
  }

  @Get('probe/product/:id')
  product(@Param('id', ParseIntPipe) id: number, @Tenant() companyId: number) {
    return this.nats.send(Subjects.inventory.productLookup, { companyId, code: String(id) });
  }

  // Nothing in this test answers company details: the caller must get 503, not 500.
  @Get('probe/nobody')
  nobody(@Tenant() companyId: number) {
    return this.nats.send(Subjects.identity.companyDetails, { companyId });
  }

  @Post('probe/lookup')
  lookupUser(@Body() body: Record<string, unknown>) {
    return this.nats.send(Subjects.identity.userLookup, body as never);
  }

  @Get('probe/me')
  me(@CurrentUser() user: TokenClaims) {
    return { user };
  }

  /** Stands in for the password change: open to a temporary password's token. */
  @Post('probe/password')
  @AllowedBeforePasswordChange()
  password(@CurrentUser() user: TokenClaims) {
    return { changed: user.uid };
  }

  @Get('probe/manager')
  @Positions('manager')
  managerOnly() {
    return { ok: true };
  }

  @Get('probe/served')
  @Public()
  servedCount() {
    return { replica: this.replica, served: this.served };
  }

  @Get('probe/public')
  @Public()
  open(@CurrentUser() user?: TokenClaims) {
    return { ok: true, user: user?.uid ?? null };
  }

  @Post('probe/seq')
  async next(@Tenant() companyId: number, @Body() dto: SeqDto) {
    return { id: await this.seq.next(companyId, dto.name) };
  }

  @Post('probe/unique')
  async unique(@Tenant() companyId: number, @Body() dto: SeqDto) {
    return { id: await this.seq.unique(companyId, dto.name) };
  }

  @Post('probe/reserve')
  async reserve(@Tenant() companyId: number, @Body() dto: SeqDto) {
    return { first: await this.seq.reserve(companyId, dto.name, 3) };
  }

  @Post('probe/things')
  async addThing(@Tenant() companyId: number, @Body() dto: ThingDto) {
    const t = await this.things.create({ ...dto, companyId });
    return { code: t.code };
  }

  @Get('probe/things/:id')
  async getThing(@Param('id') id: string, @Tenant() companyId: number) {
    return this.things.findOne({ _id: id, companyId }).lean();
  }
}

@Module({
  imports: [BahiServiceModule.forRoot({ service: 'inventory' }), MongooseModule.forFeature([{ name: Thing.name, schema: ThingSchema }])],
  controllers: [ProbeController],
})
export class ProbeModule {}
