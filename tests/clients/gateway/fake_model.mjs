// A scripted model server on loopback that speaks OpenAI Chat Completions (SSE), for tests that put
// toolstream-gateway in front of it. Its answer depends on the conversation it receives: a
// scenario is a function of the request body that returns the next turn,
//   { reasoning?, text?, calls?: [{ name, arguments: {…} }], die?: true }
// (`die`: the connection is cut in the middle of the first call). The request's `model` picks the
// scenario and the style, as `STYLE/SCENARIO`:
//   native       `reasoning_content`, `content` and `tool_calls` deltas, arguments in small pieces;
//   hermes       raw text: `<think>…</think>`, then `<tool_call>{"name":…,"arguments":{…}}</tool_call>`;
//   qwen3_coder  raw text: `<think>…</think>`, then
//                `<tool_call><function=NAME><parameter=KEY>value</parameter></function></tool_call>`;
// raw text is cut in small pieces anywhere, inside the markup too, and every SSE body is written in
// random byte pieces (inside UTF-8 characters too). `aliases` maps other model names (an agent's
// known model) to `STYLE/SCENARIO`. A model name with no scenario gets `fallback` (a short text),
// so an agent's side requests (titles, quota checks) get an answer.
// Bounded: at most `maxRequests` requests (then 429), a request body of at most 16 MiB read within
// `readTimeoutMs`, and the server closes itself after `lifetimeMs`. Every request is recorded
// (`requests`: { path, headers, body }), so a test can check what the gateway sent upstream.
import http from 'node:http';

const styles = new Set(['native', 'hermes', 'qwen3_coder']);

/// The `role: "tool"` messages of a Chat Completions request, and its last user text.
export const toolMessages = (body) => (body.messages ?? []).filter((m) => m.role === 'tool');
export const contentText = (content) => (typeof content === 'string' ? content
  : (content ?? []).map((p) => p.text ?? '').join(''));
export const lastUserText = (body) => contentText([...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content);

/// A scenario that plays `turns` in order: the next one after each tool result the model got.
export const scripted = (turns) => (body) => turns[Math.min(toolMessages(body).length, turns.length - 1)];

/// The tool names a request offered upstream.
export const offeredTools = (body) => (body.tools ?? []).map((t) => t.function?.name ?? t.name);

function xorshift(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
}

// Text cut into pieces of 1..max code points (a lone UTF-16 surrogate would not survive JSON);
// a long text (a file's content) in pieces of up to 96, which keeps a sanitized gateway quick.
function pieces(text, random, small) {
  const points = Array.from(text);
  const max = points.length > 8192 ? 96 : small;
  const out = [];
  for (let at = 0; at < points.length;) {
    const n = 1 + random(max);
    out.push(points.slice(at, at + n).join(''));
    at += n;
  }
  return out;
}

const qwenValue = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const rawCall = (style, call) => (style === 'hermes'
  ? `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`
  : `<tool_call>\n<function=${call.name}>\n${Object.entries(call.arguments)
    .map(([k, v]) => `<parameter=${k}>\n${qwenValue(v)}\n</parameter>\n`).join('')}</function>\n</tool_call>`);

/// The text and reasoning a client should read of `turn` in `style`: what the model wrote outside
/// the markup, blanks included (raw text keeps the line breaks around `<think>`'s content).
export const expectedRead = (style, turn) => (style === 'native' || !turn.reasoning
  ? { reasoning: turn.reasoning ?? '', text: turn.text ?? '' }
  : { reasoning: `\n${turn.reasoning}\n`, text: `\n\n${turn.text ?? ''}` });

/// The SSE events of `turn` in `style`, as strings, and whether the connection is cut after them.
export function renderTurn(style, turn, random) {
  const id = `chatcmpl-fake${random(1e6)}`;
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk',
    created: 1, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' })];
  const calls = turn.calls ?? [];
  if (style === 'native') {
    for (const p of pieces(turn.reasoning ?? '', random, 8)) events.push(chunk({ reasoning_content: p }));
    for (const p of pieces(turn.text ?? '', random, 8)) events.push(chunk({ content: p }));
    for (const [index, call] of calls.entries()) {
      events.push(chunk({ tool_calls: [{ index, id: `call_${index}_${random(1e6)}`, type: 'function',
        function: { name: call.name, arguments: '' } }] }));
      const args = pieces(JSON.stringify(call.arguments), random, 24);
      const keep = turn.die ? Math.max(1, args.length >> 1) : args.length;
      for (const p of args.slice(0, keep)) events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
      if (turn.die) return { events, die: true };
    }
  } else {
    const think = turn.reasoning ? `<think>\n${turn.reasoning}\n</think>\n\n` : '';
    const text = think + (turn.text ?? '') + calls.map((c) => rawCall(style, c)).join('');
    const cut = turn.die ? text.indexOf('<tool_call>') + Math.floor((text.length - text.indexOf('<tool_call>')) / 2) : text.length;
    for (const p of pieces(text.slice(0, cut), random, 12)) events.push(chunk({ content: p }));
    if (turn.die) return { events, die: true };
  }
  const finish = style === 'native' && calls.length > 0 ? 'tool_calls' : 'stop';
  events.push(chunk({}, finish));
  events.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [],
    usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`);
  events.push('data: [DONE]\n\n');
  return { events, die: false };
}

export async function startFakeModel({ scenarios, aliases = {}, fallback = () => ({ text: 'ok' }), maxRequests = 200,
  lifetimeMs = 600000, readTimeoutMs = 20000, seed = 1 }) {
  const random = xorshift(seed);
  const requests = [];
  const server = http.createServer((req, res) => {
    req.setTimeout(readTimeoutMs, () => req.destroy());
    if (requests.length >= maxRequests) {
      res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"too many requests"}}');
      return;
    }
    const record = { path: req.url, headers: req.headers, body: null };
    requests.push(record);
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > 16 << 20) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      try {
        record.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"not JSON"}}');
        return;
      }
      const model = String(record.body.model ?? '');
      const [style, name] = (aliases[model] ?? model).split('/');
      const scenario = styles.has(style) ? scenarios[name] : undefined;
      let turn;
      try {
        turn = scenario ? scenario(record.body) : fallback(record.body);
      } catch (e) {
        turn = { text: `the fake model's scenario failed: ${e.message}` };
      }
      const { events, die } = renderTurn(styles.has(style) ? style : 'native', turn, random);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const bytes = Buffer.from(events.join(''), 'utf8');
      for (let at = 0; at < bytes.length && !res.destroyed;) {
        const n = 1 + random(64);
        res.write(bytes.subarray(at, at + n));
        at += n;
        if (random(4) === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      if (die) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        res.destroy();
      } else res.end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const timer = setTimeout(() => { server.closeAllConnections?.(); server.close(); }, lifetimeMs);
  timer.unref();
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/chat/completions`,
    requests,
    close: () => new Promise((resolve) => {
      clearTimeout(timer);
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
