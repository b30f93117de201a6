// The benches' HTTP client: a lean keep-alive JSON client through the gateway, as a load tool
// would use (the cashiers' browsers are not on this machine, so the client's own CPU should take
// as little as it can from the stack measured). Browsers ask for compressed replies; `gzip` does too.
import http from 'node:http';
import zlib from 'node:zlib';

export function benchClient(gatewayUrl, { maxSockets = Infinity, gzip = false } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  /** A JSON call under /api; rejects with the status and the start of the body on 4xx/5xx. */
  function call(method, p, token, body, headers = {}) {
    const payload = body ? JSON.stringify(body) : undefined;
    const hdrs = {
      Accept: 'application/json',
      ...(gzip ? { 'Accept-Encoding': 'gzip' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const req = http.request(`${gatewayUrl}/api${p}`, { method, agent, headers: hdrs }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = (res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
          if (res.statusCode >= 400) return reject(new Error(`${method} ${p}: ${res.statusCode} ${text.slice(0, 300)}`));
          resolve(text ? JSON.parse(text) : undefined);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
  const login = async (email, password) => (await call('POST', '/loginReact', undefined, { email, password })).token;
  return { agent, call, login };
}
