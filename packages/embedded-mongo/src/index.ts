export { EmbeddedMongo, type EmbeddedMongoOptions } from './server';
export { Engine, type EngineOptions } from './engine';
export { MongoError, ErrorCode } from './errors';
