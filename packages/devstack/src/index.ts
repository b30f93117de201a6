export { freePort, assertPortFree } from './ports';
export { startNats, findNatsServer, type NatsHandle } from './nats';
export { startMongo, type MongoHandle } from './mongo';
