// Unmodified Anthropic and OpenAI Responses clients read toolstream's Anthropic Messages and OpenAI
// Responses writers.
//
//   node run_api_writer_clients.mjs --replay PATH/toolstream-replay --fixtures DIR
//
// Every recorded fixture is replayed with `toolstream-replay --emit anthropic-sse` and
// `--emit openai-responses-sse`, served over a loopback server in small random pieces, and read by
// @anthropic-ai/sdk (messages.stream().finalMessage()) and the AI SDK's @ai-sdk/anthropic, and by
// openai-node (responses.stream().finalResponse()) and @ai-sdk/openai's Responses model. Each
// must give choice 0's text, reasoning, tool calls (name, arguments) and an honest end: the
// finish mapped to the dialect, and an error where the fixture has one. Model text with calls
// written in it (--provider text) comes out as native calls too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startSseServer } from './sse_server.mjs';
import { aiSdkStream, anthropicStream, openaiResponsesStream } from './api_clients.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => (
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const { replay, fixtures: fixturesDir } = args;
if (!replay || !fixturesDir) {
  console.error('usage: node run_api_writer_clients.mjs --replay PATH --fixtures DIR');
  process.exit(2);
}
if (!fs.existsSync(fixturesDir)) {
  console.log(`fixtures not found at ${fixturesDir}: skipped`);
  console.log('0 passed, 0 failed');
  process.exit(0);
}
setTimeout(() => { console.error('client tests: over time, stopped'); process.exit(1); }, 900000).unref();

const chatDialects = new Set(['deepseek', 'groq', 'xai', 'alibaba']);
const providerOf = (dir) => (chatDialects.has(dir) ? 'openai_chat' : dir);

function runReplay(emit, provider, file, extra = [], input = undefined) {
  return execFileSync(replay, ['--provider', provider, '--emit', emit, ...extra, file],
    { encoding: 'utf8', timeout: 60000, maxBuffer: 256 << 20, input });
}

// The finish kind of choice 0, as the converters normalise the provider's raw reason.
function finishKind(provider, choice) {
  const raw = choice.finish_reason;
  if (raw === null) return 'length';
  let kind;
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
      content_filter: 'content_filter', error: 'error', stop: 'stop' }[raw] ?? 'error';
  }
  if (kind === 'stop' && choice.tool_calls.length > 0) return 'tool_calls';
  return kind;
}

const anthropicStop = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens', content_filter: 'refusal' };
const responsesStatus = { stop: 'completed', tool_calls: 'completed', length: 'incomplete', content_filter: 'incomplete' };
const aiSdkFinish = { stop: 'stop', tool_calls: 'tool-calls', length: 'length', content_filter: 'content-filter' };

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const parsed = (v) => {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return undefined; }
};

let passed = 0;
let failed = 0;
function check(label, ok, detail = '') {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${label}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}

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

const dialects = [
  { emit: 'anthropic-sse', name: 'anthropic', clients: [['anthropic-sdk stream()', anthropicStream]], finish: anthropicStop },
  { emit: 'openai-responses-sse', name: 'responses', clients: [['openai responses.stream()', openaiResponsesStream]], finish: responsesStatus },
];
const bodies = new Map();
for (const d of dialects)
  fixtures.forEach((f, i) => bodies.set(`${d.name}-fx-${i}`, runReplay(d.emit, f.provider, f.file)));

// Model text with calls written in it: native calls to every client.
const textCases = [
  { parser: 'xml', text: 'Saving it. <tool name="write_file"><arguments><arg name="path">src/a.py</arg>'
      + '<arg name="content">__START_CONTENT__\nprint("h\u00e9 \\\\ \\"q\\"")\n__END_CONTENT__</arg></arguments></tool> Done.',
    want: { text: 'Saving it.  Done.', name: 'write_file', input: { path: 'src/a.py', content: 'print("h\u00e9 \\\\ \\"q\\"")\n' } } },
  { parser: 'hermes', text: '<think>Plan.</think>Sure.<tool_call>\n{"name": "run", "arguments": {"cmd": "ls -la"}}\n</tool_call>',
    reasoningParser: 'qwen3', want: { text: 'Sure.', reasoning: 'Plan.', name: 'run', input: { cmd: 'ls -la' } } },
  { parser: 'hermes', text: 'Just text, 10 \u20ac, no call.', want: { text: 'Just text, 10 \u20ac, no call.' } },
];
for (const d of dialects)
  textCases.forEach((c, i) => bodies.set(`${d.name}-text-${i}`, runReplay(d.emit, 'text', '-',
    ['--parser', c.parser, ...(c.reasoningParser ? ['--reasoning-parser', c.reasoningParser] : [])], c.text)));

const server = await startSseServer({ bodies, seed: 41 });
try {
  for (const d of dialects) {
    for (const [i, f] of fixtures.entries()) {
      const want = f.expected.choices[0];
      const key = `${d.name}-fx-${i}`;
      const kind = want ? finishKind(f.provider, want) : 'stop';
      const names = [...new Set((want?.tool_calls ?? []).map((t) => t.name))];
      const runs = d.clients.map(([client, read]) => [client, read(server.baseURL, key), false]);
      runs.push([`ai-sdk ${d.name}`, aiSdkStream(d.name, server.baseURL, key, names), true]);
      for (const [client, pending, aiSdk] of runs) {
        const got = await pending;
        const label = `${f.name} ${d.emit} ${client}`;
        if (f.expected.error !== null || kind === 'error') {
          check(`${label} error raised`, got.error !== null, 'no error');
          continue;
        }
        if (!check(`${label} no error`, got.error === null, String(got.error?.stack ?? got.error))) continue;
        check(`${label} text`, got.text === want.text, JSON.stringify([got.text.slice(0, 100), want.text.slice(0, 100)]));
        // The AI SDK's Responses model shows reasoning summaries only, and the writer streams
        // reasoning text (as vLLM does for open models): there it reads none.
        const reasoning = aiSdk && d.name === 'responses' ? '' : want.reasoning;
        check(`${label} reasoning`, got.reasoning === reasoning, JSON.stringify([got.reasoning.slice(0, 80), reasoning.slice(0, 80)]));
        const finish = aiSdk ? aiSdkFinish[kind] : d.finish[kind];
        check(`${label} finish`, got.finish === finish, `${got.finish} vs ${finish}`);
        // A call cut off (no arguments in the expected file) is not a complete call: clients that
        // only report complete calls may leave it out.
        const complete = want.tool_calls.filter((t) => t.arguments !== null || t.arguments_raw !== null);
        if (kind === 'length') continue;
        check(`${label} call count`, got.calls.length === complete.length, `${got.calls.length} vs ${complete.length}`);
        complete.forEach((w, k) => {
          const g = got.calls[k];
          if (!g) return;
          if (w.id !== null) check(`${label} call ${k} id`, g.id === w.id, `${g.id} vs ${w.id}`);
          check(`${label} call ${k} name`, g.name === w.name, `${g.name} vs ${w.name}`);
          const input = w.arguments !== null ? parsed(g.input) : g.input;
          // A free-form (custom tool) call has raw input; Messages has no such call, so the
          // Anthropic writer gives it as the object {"input": raw}.
          const wanted = w.arguments !== null ? w.arguments : d.name === 'anthropic' ? { input: w.arguments_raw } : w.arguments_raw;
          check(`${label} call ${k} arguments`, same(input, wanted), `${JSON.stringify(g.input).slice(0, 200)} vs ${JSON.stringify(wanted).slice(0, 200)}`);
        });
      }
    }
    for (const [i, c] of textCases.entries()) {
      const key = `${d.name}-text-${i}`;
      const runs = [...d.clients.map(([client, read]) => [client, read(server.baseURL, key), false]),
        [`ai-sdk ${d.name}`, aiSdkStream(d.name, server.baseURL, key, c.want.name ? [c.want.name] : []), true]];
      for (const [client, pending, aiSdk] of runs) {
        const got = await pending;
        const label = `text/${c.parser} ${d.emit} ${client}`;
        if (!check(`${label} read`, got.error === null, String(got.error?.stack ?? got.error))) continue;
        check(`${label} text`, got.text === c.want.text, got.text);
        check(`${label} reasoning`, got.reasoning === (aiSdk && d.name === 'responses' ? '' : c.want.reasoning ?? ''), got.reasoning);
        const kind = c.want.name ? 'tool_calls' : 'stop';
        check(`${label} finish`, got.finish === (aiSdk ? aiSdkFinish[kind] : d.finish[kind]), got.finish);
        if (!c.want.name) {
          check(`${label} no call`, got.calls.length === 0, JSON.stringify(got.calls));
          continue;
        }
        check(`${label} one call`, got.calls.length === 1 && got.calls[0].name === c.want.name && got.calls[0].id.length > 0
          && same(parsed(got.calls[0].input), c.want.input), JSON.stringify(got.calls));
      }
    }
  }
} finally {
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
