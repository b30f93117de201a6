import { isLocalAddress } from './ShareButton';

describe("the share dialog's warning: links a customer's phone cannot open", () => {
  it('warns for addresses of this PC only', () => {
    for (const url of [
      'http://localhost:8080/s/abc',
      'http://LOCALHOST/s/abc',
      'http://127.0.0.1:8080/s/abc',
      'http://127.1.2.3/s/x',
      'http://[::1]:8080/s/x',
      'http://0.0.0.0:8080/s/x',
      'http://shop.localhost/s/x',
    ]) {
      expect([url, isLocalAddress(url)]).toEqual([url, true]);
    }
  });

  it('does not warn for a LAN or public address, nor for text that is not a URL', () => {
    for (const url of [
      'http://192.168.1.20:8080/s/abc',
      'https://bahi.example.in/s/abc',
      'http://localhost.example.in/s/x',
      'http://10.0.0.5/s/x',
      'http://1270.0.0.1/s/x',
      'not a url',
    ]) {
      expect([url, isLocalAddress(url)]).toEqual([url, false]);
    }
  });
});
