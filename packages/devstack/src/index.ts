export { freePort, assertPortFree, nextFreePort } from './ports';
export { startNats, findNatsServer, type NatsHandle } from './nats';
export { startMongo, type MongoHandle } from './mongo';
export { startStack, builtServices, StackServices, type Stack, type StackOptions, type StackService } from './stack';
export type { LogMode } from './processes';
