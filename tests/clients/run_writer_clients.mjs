// Unmodified OpenAI clients read toolstream's OpenAI SSE (issue 13, section 4, the writer).
//
//   node run_writer_clients.mjs --replay PATH/toolstream-replay --fixtures DIR
//
// Every recorded fixture is replayed with `toolstream-replay --emit openai-sse` (plain, and with
// --tool-events: tool progress and results between the chunks), served over a loopback server in
// small random pieces, and read by openai-node (stream().finalChatCompletion() and
// create({stream: true})) and the AI SDK (streamText, @ai-sdk/openai-compatible). Each must give
// the fixture's text, tool calls (id, name, parsed arguments) and finish reason; an error fixture
// must raise an error. A Bernard-encoded stream shows why that encoding is not used.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startSseServer } from './sse_server.mjs';
import { aiSdkStreamText, openaiCreateStream, openaiStreamHelper } from './clients.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => (
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const replay = args.replay;
const fixturesDir = args.fixtures;
if (!replay) {
  console.error('usage: node run_writer_clients.mjs --replay PATH --fixtures DIR');
  process.exit(2);
}
if (!fixturesDir || !fs.existsSync(fixturesDir)) {
  console.log(`fixtures not found at ${fixturesDir}: skipped`);
  console.log('0 passed, 0 failed');
  process.exit(0);
}
setTimeout(() => { console.error('client tests: over time, stopped'); process.exit(1); }, 600000).unref();

const chatDialects = new Set(['deepseek', 'groq', 'xai', 'alibaba']);
const providerOf = (dir) => (chatDialects.has(dir) ? 'openai_chat' : dir);

function runReplay(provider, file, extra = [], input = undefined) {
  return execFileSync(replay, ['--provider', provider, '--emit', 'openai-sse', ...extra, file],
    { encoding: 'utf8', timeout: 60000, maxBuffer: 256 << 20, input });
}

// The provider's raw finish reason normalised, as each converter documents it.
function expectedFinish(provider, choice) {
  const raw = choice.finish_reason;
  if (raw === null) return 'length';
  let kind = 'stop';
  if (provider === 'anthropic') {
    kind = { max_tokens: 'length', model_context_window_exceeded: 'length', tool_use: 'tool_calls', refusal: 'content_filter' }[raw] ?? 'stop';
  } else if (provider === 'gemini') {
    kind = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter' }[raw] ?? 'error';
  } else if (provider === 'ollama') {
    kind = raw === 'length' ? 'length' : 'stop';
  } else if (provider === 'openai_responses') {
    kind = { incomplete: 'length', failed: 'error' }[raw] ?? 'stop';
  } else {
    kind = { length: 'length', model_length: 'length', tool_calls: 'tool_calls', function_call: 'tool_calls',
      content_filter: 'content_filter', error: 'error' }[raw] ?? 'stop';
  }
  if (kind === 'stop' && choice.tool_calls.some((c) => c.arguments !== null)) return 'tool_calls';
  // A completed Responses response completed its calls, free-form custom tools included (their
  // input is no JSON: `arguments` null).
  if (kind === 'stop' && provider === 'openai_responses' && choice.tool_calls.length > 0) return 'tool_calls';
  return kind;
}

const aiSdkFinish = { stop: 'stop', length: 'length', content_filter: 'content-filter', tool_calls: 'tool-calls' };

function parsedOrNull(text) {
  if (text.trim() === '') return {};
  try { return JSON.parse(text); } catch { return null; }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

let passed = 0;
let failed = 0;
function check(label, ok, detail = '') {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${label}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}

// The converters fill the normalised finish once the providers work lands; until then every
// choice finishes `length` (the pipeline's fallback) and finishes are checked for presence only.
const finishNormalised = runReplay('openai_chat', '-', [],
  'data: {"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}\n\n').includes('"finish_reason":"stop"');
if (!finishNormalised) console.log('note: the converters do not normalise finish reasons yet: finishes checked for presence only');

const fixtures = [];
for (const dir of fs.readdirSync(fixturesDir).sort()) {
  const full = path.join(fixturesDir, dir);
  if (!fs.statSync(full).isDirectory()) continue;
  for (const name of fs.readdirSync(full).sort()) {
    const ext = path.extname(name);
    if (ext !== '.sse' && ext !== '.ndjson') continue;
    const expectedPath = path.join(full, `${path.basename(name, ext)}.expected.json`);
    if (!fs.existsSync(expectedPath)) continue;
    fixtures.push({ name: `${dir}/${path.basename(name, ext)}`, provider: providerOf(dir), file: path.join(full, name),
      expected: JSON.parse(fs.readFileSync(expectedPath, 'utf8')) });
  }
}

const bodies = new Map();
fixtures.forEach((f, i) => {
  bodies.set(`fx-${i}`, runReplay(f.provider, f.file));
  bodies.set(`fx-${i}-tools`, runReplay(f.provider, f.file, ['--tool-events']));
  bodies.set(`fx-${i}-comments`, runReplay(f.provider, f.file, ['--tool-events', '--extensions', 'comment']));
});
// Bernard's encoding (design 004): a bare progress object and a role:"tool" delta between chunks.
const bernard = [
  { id: 'chatcmpl-b', object: 'chat.completion.chunk', created: 1, model: 'bernard-v1',
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Searching.' }, finish_reason: null }] },
  { type: 'tool_progress', request_id: 'chatcmpl-b',
    data: { _type: 'tool_progress', tool: 'web_search', phase: 'progress', message: '2/3', timestamp: 1 } },
  { id: 'chatcmpl-b', object: 'chat.completion.chunk', created: 1, model: 'bernard-v1',
    choices: [{ index: 0, delta: { role: 'tool', tool_call_id: 'call_1', content: '65F' }, finish_reason: null }] },
  { id: 'chatcmpl-b', object: 'chat.completion.chunk', created: 1, model: 'bernard-v1',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
].map((o) => `data: ${JSON.stringify(o)}\n\n`).join('') + 'data: [DONE]\n\n';
bodies.set('bernard', bernard);

// Model text with calls written in it (--provider text): the calls are native tool calls to every client.
const textCases = [
  { parser: 'xml', text: 'Saving it. <tool name="write_file"><arguments><arg name="path">src/a.py</arg>'
      + '<arg name="content">__START_CONTENT__\nprint("h\u00e9")\n__END_CONTENT__</arg></arguments></tool> Done.',
    want: { text: 'Saving it.  Done.', name: 'write_file', arguments: { path: 'src/a.py', content: 'print("h\u00e9")\n' } } },
  { parser: 'json', text: 'Sure: {"tool": {"function": "read_file", "parameters": {"path": "a.py"}}}',
    want: { text: 'Sure: ', name: 'read_file', arguments: { path: 'a.py' } } },
  // No call: the writer, fed by a handler, still finishes the choice (`stop`).
  { parser: 'hermes', text: 'Just text, 10 \u20ac, no call.', want: { text: 'Just text, 10 \u20ac, no call.' } },
];
textCases.forEach((c, i) => bodies.set(`text-${i}`, runReplay('text', '-', ['--parser', c.parser], c.text)));

const server = await startSseServer({ bodies, seed: 13 });
try {
  for (const [i, f] of fixtures.entries()) {
    const want = f.expected;
    for (const variant of ['', '-tools', '-comments']) {
      const key = `fx-${i}${variant}`;
      // A host runs every complete call: one with JSON arguments, or a free-form one (Responses
      // custom tools: raw input, no JSON arguments in the expected file).
      const freeForm = fs.readFileSync(f.file, 'utf8').includes('"custom_tool_call"');
      const toolEvents = variant === '' ? 0 : f.expected.choices.reduce((n, c) =>
        n + c.tool_calls.filter((t) => t.arguments !== null || (freeForm && t.arguments_raw !== null)).length, 0);
      const names = [...new Set(want.choices.flatMap((c) => c.tool_calls.map((t) => t.name)))];
      const runs = [
        ['openai stream()', await openaiStreamHelper(server.baseURL, key), { reasoning: false }],
        ['openai create()', await openaiCreateStream(server.baseURL, key), { reasoning: true, events: true }],
      ];
      if (want.choices.length === 1) runs.push(['ai-sdk streamText', await aiSdkStreamText(server.baseURL, key, names), { reasoning: true, aiSdk: true }]);
      for (const [client, got, how] of runs) {
        const label = `${f.name}${variant} ${client}`;
        if (want.error !== null) {
          check(label, got.error !== null, 'no error raised');
          // The core words some errors itself; the message is the provider's or contains it.
          const message = String(got.error?.message ?? '');
          if (got.error && !how.aiSdk) check(`${label} error message`, message.length > 0 && (want.error.includes(message) || message.includes(want.error)), message);
          continue;
        }
        check(`${label} no error`, got.error === null, String(got.error?.stack ?? got.error));
        if (got.error) continue;
        if (how.events) {
          check(`${label} progress read`, got.progress === (variant === '-tools' ? 2 * toolEvents : 0), `${got.progress}`);
          check(`${label} results read`, got.results === (variant === '-tools' ? toolEvents : 0), `${got.results}`);
        }
        for (const c of want.choices) {
          const ch = got.choices[c.index];
          if (!check(`${label} choice ${c.index} present`, ch !== undefined)) continue;
          check(`${label} text`, ch.text === c.text, JSON.stringify([ch.text.slice(0, 120), c.text.slice(0, 120)]));
          if (how.reasoning) check(`${label} reasoning`, ch.reasoning === c.reasoning, JSON.stringify([ch.reasoning.slice(0, 80), c.reasoning.slice(0, 80)]));
          const calls = ch.calls.filter(Boolean);
          check(`${label} call count`, calls.length === c.tool_calls.length, `${calls.length} vs ${c.tool_calls.length}`);
          c.tool_calls.forEach((w, k) => {
            const g = calls[k];
            if (!g) return;
            if (w.id !== null) check(`${label} call ${k} id`, g.id === w.id, `${g.id} vs ${w.id}`);
            else check(`${label} call ${k} id`, typeof g.id === 'string' && g.id.length > 0);
            check(`${label} call ${k} name`, g.name === w.name, `${g.name} vs ${w.name}`);
            const args = how.aiSdk && w.arguments === null ? null : parsedOrNull(g.arguments);
            check(`${label} call ${k} arguments`, same(args, w.arguments), `${g.arguments} vs ${JSON.stringify(w.arguments)}`);
          });
          const finish = expectedFinish(f.provider, c);
          if (finishNormalised) {
            check(`${label} finish`, ch.finish === (how.aiSdk ? aiSdkFinish[finish] : finish), `${ch.finish} vs ${finish}`);
          } else {
            check(`${label} finish present`, typeof ch.finish === 'string' && ch.finish.length > 0);
          }
        }
      }
    }
  }
  for (const [i, c] of textCases.entries()) {
    for (const [client, got] of [['openai stream()', await openaiStreamHelper(server.baseURL, `text-${i}`)],
      ['openai create()', await openaiCreateStream(server.baseURL, `text-${i}`)],
      ['ai-sdk streamText', await aiSdkStreamText(server.baseURL, `text-${i}`, c.want.name ? [c.want.name] : [])]]) {
      const label = `text/${c.parser} ${client}`;
      const ch = got.choices[0];
      if (!check(`${label} read`, got.error === null && ch !== undefined, String(got.error))) continue;
      check(`${label} text`, ch.text === c.want.text, ch.text);
      if (c.want.name === undefined) {
        check(`${label} no call`, ch.calls.filter(Boolean).length === 0, JSON.stringify(ch.calls));
        check(`${label} finish`, ch.finish === 'stop', ch.finish);
        continue;
      }
      check(`${label} one call`, ch.calls.length === 1 && ch.calls[0].name === c.want.name && ch.calls[0].id.length > 0
        && same(JSON.parse(ch.calls[0].arguments), c.want.arguments), JSON.stringify(ch.calls));
      check(`${label} finish`, ch.finish === (client.startsWith('ai-sdk') ? 'tool-calls' : 'tool_calls'), ch.finish);
    }
  }
  // Bernard's encoding breaks openai-node's helper: the bare progress object has no choices.
  const broken = await openaiStreamHelper(server.baseURL, 'bernard');
  check('bernard encoding breaks openai-node stream()', broken.error !== null && /choices/.test(String(broken.error.message)),
    String(broken.error?.message));
} finally {
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
