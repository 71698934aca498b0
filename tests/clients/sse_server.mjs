// A loopback HTTP server for the client tests: a POST to an API route answers with the SSE
// body registered under the request's `model`, written in small random pieces. It binds to
// 127.0.0.1 on a free port, serves a bounded number of requests, and closes itself after
// `lifetimeMs` whatever happens.
import http from 'node:http';

// The client APIs whose streams the tests serve: Chat Completions, Anthropic Messages, OpenAI Responses.
const apiRoutes = new Set(['/v1/chat/completions', '/v1/messages', '/v1/responses']);

export async function startSseServer({ bodies, maxRequests = 10000, lifetimeMs = 300000, seed = 1 }) {
  let state = seed >>> 0 || 1;
  const random = (n) => {   // xorshift32: the same pieces on every run
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
  let served = 0;
  const server = http.createServer((req, res) => {
    if (++served > maxRequests) {
      res.writeHead(429).end();
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > 1 << 20) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      let model = '';
      try {
        model = JSON.parse(Buffer.concat(chunks).toString('utf8')).model ?? '';
      } catch {
        // falls through to 404
      }
      const route = (req.url ?? '').split('?')[0];
      const body = req.method === 'POST' && apiRoutes.has(route) ? bodies.get(model) : undefined;
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no stream for ${model}`, type: 'invalid_request_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const bytes = Buffer.from(body, 'utf8');
      for (let at = 0; at < bytes.length && !res.destroyed;) {
        const n = 1 + random(48);
        res.write(bytes.subarray(at, at + n));
        at += n;
        if (random(4) === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((resolve) => {
      clearTimeout(timer);
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
