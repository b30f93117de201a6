export { AuthError, type AuthErrorCode, bearerToken, newSessionId, signToken, verifyToken } from './token';
export { RevocationList, Revoke, type RevocationListOptions } from './revocation-list';
export { RemoteError, decodeEvent, nestEmit, nestRequest, toRemoteError } from './nest-wire';
export { MIN_JWT_SECRET_LENGTH, requireJwtSecret } from './secret';
