import { isLocalOnlyAddress, parsePublicAddress } from '../src/identity';

describe("the shop's public address (Setting)", () => {
  it('keeps the site only: scheme, host and port', () => {
    expect(parsePublicAddress('https://Shop.Example.in/')).toEqual({ url: 'https://shop.example.in' });
    expect(parsePublicAddress(' http://192.168.1.5:8080 ')).toEqual({ url: 'http://192.168.1.5:8080' });
    expect(parsePublicAddress('https://shop.example.in:443')).toEqual({ url: 'https://shop.example.in' });
    expect(parsePublicAddress('')).toEqual({ url: null });
    expect(parsePublicAddress(null)).toEqual({ url: null });
  });

  it.each([
    ['ftp://shop.example.in', 'The public address must start with https:// (or http://).'],
    ['javascript:alert(1)', 'The public address must start with https:// (or http://).'],
    ['shop.example.in', 'The public address must be a full web address, like https://shop.example.in.'],
    ['https://shop.example.in/bills', 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
    ['https://shop.example.in/..', 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
    ['https://shop.example.in/%2e%2e/', 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
    ['https://shop.example.in?next=x', 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
    ['https://shop.example.in#x', 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
    ['https://owner:pw@shop.example.in', 'The public address cannot hold a user name or password.'],
    ['https:/\\evil.example', 'The public address cannot contain spaces or backslashes; type it like https://shop.example.in.'],
    ['https://shop example.in', 'The public address cannot contain spaces or backslashes; type it like https://shop.example.in.'],
    [42, 'The public address must be text, like https://shop.example.in.'],
    [`https://${'a'.repeat(200)}.in`, 'The public address can be at most 200 characters.'],
  ])('refuses %j with a sentence', (raw, problem) => {
    expect(parsePublicAddress(raw)).toEqual({ problem });
  });

  it('knows the addresses only this PC reaches', () => {
    expect(['http://localhost:8080', 'http://127.0.0.5', 'http://[::1]:8080', 'http://0.0.0.0'].map(isLocalOnlyAddress)).toEqual([true, true, true, true]);
    expect(['http://192.168.1.2:8080', 'https://shop.example.in'].map(isLocalOnlyAddress)).toEqual([false, false]);
  });
});
