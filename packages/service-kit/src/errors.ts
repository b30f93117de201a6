import {
  type ArgumentsHost,
  BadRequestException,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  type ValidationError as ClassValidationError,
} from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import type { Response } from 'express';
import mongoose from 'mongoose';
import type { Logger } from 'pino';
import { throwError } from 'rxjs';
import { AuthError, RemoteError } from '@bahi/auth';
import type { RpcErrorBody } from '@bahi/contracts';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface ErrorOutcome {
  status: number;
  message: string;
  /** Body to send over HTTP; a spec-prescribed body (e.g. {success:false,msg}) stays as thrown. */
  body: Record<string, unknown>;
}

function joinMessage(m: unknown): string {
  if (Array.isArray(m)) return m.map(String).join('; ');
  return typeof m === 'string' ? m : '';
}

function plain(status: number, message: string): ErrorOutcome {
  return { status, message, body: { statusCode: status, message, error: STATUS_NAMES[status] ?? 'Error' } };
}

/** Maps anything thrown to a status and a message fit for a person; unknown errors are logged and hidden. */
export function describeError(exception: unknown, logger?: Logger): ErrorOutcome {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const res = exception.getResponse();
    if (typeof res === 'string') return plain(status, res);
    const obj = res as Record<string, unknown>;
    const message = joinMessage(obj.message) || joinMessage(obj.msg) || joinMessage(obj.err) || exception.message;
    if ('statusCode' in obj) return { status, message, body: { ...obj, message } };
    return { status, message, body: obj };
  }
  if (exception instanceof RpcException) {
    const e = exception.getError();
    if (typeof e === 'string') return plain(400, e);
    const r = e as Partial<RpcErrorBody>;
    return plain(typeof r.status === 'number' ? r.status : 500, typeof r.message === 'string' ? r.message : 'Internal server error');
  }
  if (exception instanceof AuthError) return plain(401, exception.message);
  if (exception instanceof RemoteError) return plain(exception.status, exception.message);
  if (exception instanceof mongoose.Error.ValidationError) {
    return plain(400, Object.values(exception.errors).map((e) => e.message).join('; '));
  }
  if (exception instanceof mongoose.Error.CastError) {
    return plain(400, `Invalid value for ${exception.path}: '${String(exception.value)}'.`);
  }
  const err = exception as { code?: unknown; keyValue?: Record<string, unknown>; keyPattern?: Record<string, unknown>; status?: unknown; expose?: boolean; type?: string; message?: string };
  if (err && err.code === 11000) {
    const fields = Object.keys(err.keyValue ?? err.keyPattern ?? {}).filter((f) => f !== 'companyId');
    return plain(409, `A record with this ${fields.join(', ') || 'value'} already exists.`);
  }
  // body-parser and other http-errors style errors (malformed JSON, body too large).
  if (err && typeof err.status === 'number' && err.status >= 400 && err.status < 500 && err.expose) {
    const message = err.type === 'entity.parse.failed' ? 'The request body is not valid JSON.' : (err.message ?? 'Bad request');
    return plain(err.status, message);
  }
  logger?.error({ err: exception }, 'unhandled error');
  return plain(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
}

/**
 * The one exception filter: HTTP replies in Nest's {statusCode, message, error} shape (or the
 * spec's body when one was thrown), and across NATS an RpcException body {status, message}.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger?: Logger) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const outcome = describeError(exception, this.logger);
    if (host.getType() === 'rpc') {
      const body: RpcErrorBody = { status: outcome.status, message: outcome.message };
      return throwError(() => body);
    }
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    res.status(outcome.status).json(outcome.body);
  }
}

function flatten(errors: ClassValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) {
      // whitelist errors read "property x should not exist": say it plainly.
      for (const [k, msg] of Object.entries(e.constraints)) {
        out.push(k === 'whitelistValidation' ? `Unknown field '${path}'.` : msg.replace(e.property, path));
      }
    }
    if (e.children?.length) out.push(...flatten(e.children, path));
  }
  return out;
}

/** ValidationPipe's exceptionFactory: one 400 whose message names each bad field. */
export function validationException(errors: ClassValidationError[]): BadRequestException {
  const sentences = [...new Set(flatten(errors))].map((m) => (/[.!?]$/.test(m) ? m : `${m}.`));
  return new BadRequestException(sentences.join(' ') || 'Invalid request.');
}
