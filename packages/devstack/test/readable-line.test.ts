import { readableLine } from '../src/processes';

describe('readableLine', () => {
  it('turns a pino JSON line into time, level, message and fields', () => {
    const time = new Date(2026, 0, 5, 9, 7, 3).getTime();
    const line = JSON.stringify({ level: 40, time, pid: 1, hostname: 'h', name: 'gateway', msg: 'upstream error', service: 'sales', code: 'ECONNREFUSED' });
    expect(readableLine(line)).toBe('09:07:03 WARN  upstream error  service=sales code=ECONNREFUSED');
  });

  it('leaves other lines alone', () => {
    expect(readableLine('plain text')).toBe('plain text');
    expect(readableLine('{not json')).toBe('{not json');
    expect(readableLine('{"a":1}')).toBe('{"a":1}');
  });
});
