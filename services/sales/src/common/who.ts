import { createParamDecorator, type ExecutionContext, ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { AuthedRequest } from '@bahi/service-kit';

export interface Who {
  companyId: number;
  userId: number;
  name: string;
  position: string;
}

/** The caller's company (from the verified token only) and user: carts are per user. */
export const CurrentWho = createParamDecorator((_: unknown, ctx: ExecutionContext): Who => {
  const user = ctx.switchToHttp().getRequest<AuthedRequest>().user;
  if (!user) throw new UnauthorizedException('Authentication required: send a bearer token.');
  if (user.companyId === null || user.companyId === undefined) {
    throw new ForbiddenException('This call needs a company account; platform administrators have no company.');
  }
  return { companyId: user.companyId, userId: user.uid, name: user.name, position: user.position };
});
