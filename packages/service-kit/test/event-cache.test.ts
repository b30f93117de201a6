import { EventCache } from '../src/event-cache';

describe('EventCache', () => {
  it('loads a key once while fresh (concurrent misses share the load), again after the TTL or a drop', async () => {
    let now = 1000;
    const loads: number[] = [];
    const cache = new EventCache<number, string>({
      load: async (k) => {
        loads.push(k);
        return `v${k}-${loads.length}`;
      },
      ttlMs: 30_000,
      now: () => now,
    });
    expect(await Promise.all([cache.get(1), cache.get(1)])).toEqual(['v1-1', 'v1-1']);
    now += 29_999;
    expect(await cache.get(1)).toBe('v1-1');
    now += 1;
    expect(await cache.get(1)).toBe('v1-2');
    cache.drop(1);
    expect(await cache.get(1)).toBe('v1-3');
    expect(await cache.get(2)).toBe('v2-4');
    expect(loads).toEqual([1, 1, 1, 2]);
  });

  it('forgets a failed load, so the next call asks again', async () => {
    let fail = true;
    const cache = new EventCache<number, string>({
      load: async () => {
        if (fail) throw new Error('identity is down');
        return 'ok';
      },
      ttlMs: 30_000,
    });
    await expect(cache.get(7)).rejects.toThrow('identity is down');
    fail = false;
    expect(await cache.get(7)).toBe('ok');
  });

  it('serves the last value while a reload after the TTL fails, never after a drop', async () => {
    let now = 0;
    let fail = false;
    let n = 0;
    const cache = new EventCache<number, string>({
      load: async () => {
        if (fail) throw new Error('identity is down');
        return `v${++n}`;
      },
      ttlMs: 1000,
      now: () => now,
    });
    expect(await cache.get(1)).toBe('v1');
    fail = true;
    now = 1000;
    expect(await cache.get(1)).toBe('v1');
    expect(await cache.get(1)).toBe('v1');
    fail = false;
    expect(await cache.get(1)).toBe('v2');
    fail = true;
    cache.drop(1);
    await expect(cache.get(1)).rejects.toThrow('identity is down');
  });
});
