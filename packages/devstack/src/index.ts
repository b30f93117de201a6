export { freePort, assertPortFree, nextFreePort } from './ports';
export { startNats, findNatsServer, natsConfig, type NatsHandle, type NatsUser } from './nats';
export { startMongo, mongoCredentials, mongoUriFor, type MongoHandle, type MongoCredentials, type MongoLogin } from './mongo';
export { startStack, builtServices, StackServices, type Stack, type StackOptions, type StackService } from './stack';
export type { LogMode } from './processes';
