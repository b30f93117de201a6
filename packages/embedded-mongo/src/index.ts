export { EmbeddedMongo, type EmbeddedMongoOptions } from './server';
export { Engine, type EngineOptions } from './engine';
export { MongoError, ErrorCode } from './errors';
export { saslprep, scramCredential, storedUser, readUsersFile, SCRAM_SHA_256, DEFAULT_ITERATIONS, type AuthOptions, type UserSpec, type StoredUser, type Role, type ScramCredential } from './commands/auth';
