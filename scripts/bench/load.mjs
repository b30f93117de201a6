// The benches' closed-loop load and the bare Node HTTP floor, shared by scripts/bench/suite.mjs
// and services/sales/bench/counter-matrix.bench.mjs (a ratio to the floor is only fair when both
// sides are measured the same way in the same run).
import http from 'node:http';

/** Closed loop: `concurrency` clients each sending the next request when the last answered. */
export async function loadTest(url, { concurrency, seconds = 4, headers = {}, method = 'GET', body }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const lat = [];
  const until = performance.now() + seconds * 1000;
  let errors = 0;
  // headers and body may be functions of the client's number (each cashier has their own cart).
  const one = (i) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const b = typeof body === 'function' ? body(i) : body;
      const h = typeof headers === 'function' ? headers(i) : headers;
      const payload = b === undefined ? undefined : JSON.stringify(b);
      const hdrs = payload ? { ...h, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : h;
      const req = http.request(url, { method, agent, headers: hdrs }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode >= 400) errors++;
          lat.push(performance.now() - t0);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(payload);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < until) await one(i);
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return summary(lat, elapsed, errors);
}

export function summary(lat, elapsed, errors) {
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))];
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99), rps: lat.length / elapsed, errors, lat, elapsed };
}

/** The floor: a bare `node:http` server answering a constant, loaded from this process by `loadTest`. */
export async function bareFloor(concurrencies, seconds = 4) {
  const bare = http.createServer((req, res) => res.end('{"ok":true}'));
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${bare.address().port}/`;
  const out = {};
  try {
    for (const c of concurrencies) out[c] = await loadTest(url, { concurrency: c, seconds });
  } finally {
    bare.close();
  }
  return out;
}
