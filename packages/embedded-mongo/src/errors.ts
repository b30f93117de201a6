/** MongoDB server error codes this server answers with (names as MongoDB spells them). */
export const ErrorCode = {
  InternalError: 1,
  BadValue: 2,
  NoSuchKey: 4,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  EmptyArrayOperation: 16,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  MaxTimeMSExpired: 50,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  ConflictingOperationInProgress: 117,
  IndexKeySpecsConflict: 86,
  WriteConflict: 112,
  CommandNotSupported: 115,
  DocumentValidationFailure: 121,
  InvalidPipelineOperator: 168,
  InvalidIndexSpecificationOption: 197,
  Unauthorized: 13,
  ProtocolError: 17,
  AuthenticationFailed: 18,
  MechanismUnavailable: 334,
  TransactionTooOld: 225,
  NotImplemented: 238,
  SnapshotTooOld: 239,
  SnapshotUnavailable: 246,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  TransactionTooLarge: 257,
  OperationNotSupportedInTransaction: 263,
  BSONObjectTooLarge: 10334,
  DuplicateKey: 11000,
  Location40324: 40324,
  Location15947: 15947,
  Location40170: 40170,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

const NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([k, v]) => [v, k]));

export function codeName(code: number): string {
  return NAMES.get(code) ?? 'UnknownError';
}

/**
 * An error answered as a command failure: `{ ok: 0, errmsg, code, codeName, errorLabels? }`.
 * `extra` fields are merged into the reply (e.g. `keyPattern`/`keyValue` of a duplicate key).
 */
export class MongoError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly labels: string[];
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCodeName | number, message: string, opts: { labels?: string[]; extra?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'MongoError';
    this.code = typeof code === 'number' ? code : ErrorCode[code];
    this.codeName = typeof code === 'number' ? codeName(code) : code;
    this.labels = opts.labels ?? [];
    this.extra = opts.extra ?? {};
  }

  /** The reply document of a failed command. */
  toReply(): Record<string, unknown> {
    const reply: Record<string, unknown> = { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
    if (this.labels.length) reply.errorLabels = this.labels;
    return reply;
  }

  /** The entry of a `writeErrors` array. */
  toWriteError(index: number): Record<string, unknown> {
    return { index, code: this.code, codeName: this.codeName, errmsg: this.message, ...this.extra };
  }
}

/** Any thrown value as a MongoError; mingo's and other library errors become BadValue. */
export function toMongoError(err: unknown): MongoError {
  if (err instanceof MongoError) return err;
  if (err instanceof Error) {
    if (err.name === 'MingoError' || err.constructor?.name === 'MingoError') return new MongoError('BadValue', err.message);
    return new MongoError('InternalError', err.message);
  }
  return new MongoError('InternalError', String(err));
}
