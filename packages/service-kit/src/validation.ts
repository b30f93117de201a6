import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';

const isEmptyPlainObject = (v: unknown): v is Record<string, never> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.keys(v).length === 0;
};

/**
 * The global ValidationPipe, with one shortcut: an empty object (a call without a query string,
 * a NATS request without a payload) for a class that already accepted an empty object once is
 * accepted again without class-validator. With every field absent the rules' outcome cannot
 * change (an absent required field is refused every time, so such a class is never remembered);
 * the handler still gets its own new instance, built as the pipe builds it. Everything else goes
 * through the full pipe.
 */
export class BahiValidationPipe extends ValidationPipe {
  private readonly acceptsEmpty = new WeakSet<object>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    const empty = this.isTransformEnabled && typeof metatype === 'function' && isEmptyPlainObject(value);
    if (empty && this.acceptsEmpty.has(metatype)) return plainToInstance(metatype as new () => object, {}, this.transformOptions);
    const out: unknown = await super.transform(value, metadata);
    // Only a class the pipe built an instance of (not a value it let through as it came).
    if (empty && out !== value && out instanceof metatype) this.acceptsEmpty.add(metatype);
    return out;
  }
}
