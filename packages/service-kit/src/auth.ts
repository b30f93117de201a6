import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  ServiceUnavailableException,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthError, bearerToken, RevocationList, verifyToken } from '@bahi/auth';
import { FORCE_CHANGE_MESSAGE, REVOCATIONS_LOADING_MESSAGE, type Position, type TokenClaims } from '@bahi/contracts';
import { SERVICE_CONFIG, type ServiceConfig } from './config';

const PUBLIC_KEY = 'bahi:public';
const POSITIONS_KEY = 'bahi:positions';
const FORCE_CHANGE_KEY = 'bahi:force-change-ok';

/** The route needs no token. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** Only these positions may call the route (403 otherwise). Applies to a handler or a whole controller. */
export const Positions = (...positions: Position[]) => SetMetadata(POSITIONS_KEY, positions);

/**
 * A token that must change its temporary password (claim `fc`) may call this route: only the
 * password change and logout (contracts FORCE_CHANGE_CALLS); every other route answers 403.
 */
export const AllowedBeforePasswordChange = () => SetMetadata(FORCE_CHANGE_KEY, true);

export type AuthedRequest = Request & { user?: TokenClaims };

/** Verifies tokens against the shared secret and the live revocation list. */
@Injectable()
export class AuthService {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly cfg: ServiceConfig,
    private readonly revocations: RevocationList,
  ) {}

  /** Claims of a valid, unrevoked token; throws AuthError otherwise. */
  verify(token: string | null | undefined): TokenClaims {
    const claims = verifyToken(token, this.cfg.jwtSecret);
    if (this.revocations.isRevoked(claims)) throw new AuthError('revoked');
    return claims;
  }

  /** False until the revoked sessions were loaded from identity: no token can be trusted before. */
  get ready(): boolean {
    return this.revocations.loaded;
  }

  /** Claims of the request's bearer token, or null when missing, not valid, or not yet checkable. */
  tryRequest(req: Request): TokenClaims | null {
    if (!this.ready) return null;
    try {
      return this.verify(bearerToken(req.headers.authorization));
    } catch {
      return null;
    }
  }
}

const POSITION_MESSAGES: Record<string, string> = {
  admin: 'Only a platform administrator can do this.',
  manager: 'Only a manager can do this.',
};

/** A route's @Public(), @AllowedBeforePasswordChange() and @Positions(), as the guard reads them. */
interface RouteRules {
  public: boolean;
  forceChangeOk: boolean;
  positions: Position[] | undefined;
}

/**
 * Global guard of HTTP routes: a valid, unrevoked bearer token unless @Public() (503 until the
 * revocation list has loaded), a temporary password's token only on
 * @AllowedBeforePasswordChange() routes, then the @Positions() check. NATS handlers are internal and pass (callers already checked the user).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  /** Decorators are fixed when the classes load, so each route's are read once (per handler and class). */
  private readonly rules = new WeakMap<object, WeakMap<object, RouteRules>>();

  private rulesOf(handler: object, cls: object): RouteRules {
    let byClass = this.rules.get(handler);
    if (!byClass) this.rules.set(handler, (byClass = new WeakMap()));
    let rules = byClass.get(cls);
    if (!rules) {
      const targets = [handler, cls] as Parameters<Reflector['getAllAndOverride']>[1];
      rules = {
        public: this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) === true,
        forceChangeOk: this.reflector.getAllAndOverride<boolean>(FORCE_CHANGE_KEY, targets) === true,
        positions: this.reflector.getAllAndOverride<Position[] | undefined>(POSITIONS_KEY, targets),
      };
      byClass.set(cls, rules);
    }
    return rules;
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const route = this.rulesOf(ctx.getHandler(), ctx.getClass());
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    if (route.public) {
      // Public routes still see a valid token's claims when one is sent.
      req.user = this.auth.tryRequest(req) ?? undefined;
      return true;
    }
    if (!this.auth.ready) {
      ctx.switchToHttp().getResponse<{ setHeader(k: string, v: string): void }>().setHeader('Retry-After', '5');
      throw new ServiceUnavailableException(REVOCATIONS_LOADING_MESSAGE);
    }
    try {
      req.user = this.auth.verify(bearerToken(req.headers.authorization));
    } catch (err) {
      throw new UnauthorizedException((err as Error).message);
    }
    if (req.user.fc && !route.forceChangeOk) {
      throw new ForbiddenException(FORCE_CHANGE_MESSAGE);
    }
    const allowed = route.positions;
    if (allowed?.length && !allowed.includes(req.user.position)) {
      const need = allowed.length === 1 ? POSITION_MESSAGES[allowed[0]!] : undefined;
      throw new ForbiddenException(need ?? `Your position (${req.user.position}) may not do this.`);
    }
    return true;
  }
}

/** The verified claims of the caller (undefined on a public route without a token). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): TokenClaims | undefined => {
  return ctx.switchToHttp().getRequest<AuthedRequest>().user;
});

/** The caller's companyId, from the verified token only; 403 for a token without a company (a platform admin). */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): number => {
  const user = ctx.switchToHttp().getRequest<AuthedRequest>().user;
  if (!user) throw new UnauthorizedException('Authentication required: send a bearer token.');
  if (user.companyId === null || user.companyId === undefined) {
    throw new ForbiddenException('This call needs a company account; platform administrators have no company.');
  }
  return user.companyId;
});
