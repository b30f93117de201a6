import { natsServers } from '../src';

describe('natsServers (NATS_URL)', () => {
  it('reads one server or a cluster listed with commas', () => {
    expect(natsServers('nats://127.0.0.1:4222')).toEqual(['nats://127.0.0.1:4222']);
    expect(natsServers('nats://nats-1:4222, nats://nats-2:4222,nats://nats-3:4222')).toEqual(['nats://nats-1:4222', 'nats://nats-2:4222', 'nats://nats-3:4222']);
  });
  it('refuses an address list with no server', () => {
    expect(() => natsServers(' , ')).toThrow('NATS_URL names no server.');
  });
});
