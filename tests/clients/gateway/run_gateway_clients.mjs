// Unmodified OpenAI clients talk to toolstream-gateway (issue 13, sections 3 and 4).
//
//   node gateway/run_gateway_clients.mjs --gateway PATH/toolstream-gateway --fixtures DIR
//
// A loopback model server (../sse_server.mjs) answers with a recorded stream picked by the
// request's model; toolstream-gateway runs in front of it (as openai_chat, as ollama, and with
// --parser xml for a model that writes its calls in text). openai-node (stream() +
// finalChatCompletion(), create({stream: true}), create() without streaming) and the AI SDK
// (streamText, @ai-sdk/openai-compatible) talk to the gateway and must get each stream's text,
// tool calls (id, name, parsed arguments) and finish reason; an error stream must raise an error.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import OpenAI from 'openai';
import { startSseServer } from '../sse_server.mjs';
import { aiSdkStreamText, openaiCreateStream, openaiStreamHelper } from '../clients.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => (
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
if (!args.gateway) {
  console.error('usage: node gateway/run_gateway_clients.mjs --gateway PATH --fixtures DIR');
  process.exit(2);
}
const fixturesDir = args.fixtures && fs.existsSync(args.fixtures) ? args.fixtures : null;
setTimeout(() => { console.error('gateway client tests: over time, stopped'); process.exit(1); }, 600000).unref();

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
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const parsedOrNull = (text) => {
  if (text.trim() === '') return {};
  try { return JSON.parse(text); } catch { return null; }
};

// The gateway on an ephemeral loopback port; it exits by itself after --exit-after.
async function startGateway(upstream, provider, extra = []) {
  const child = spawn(args.gateway, ['--listen', '127.0.0.1:0', '--upstream', upstream, '--provider', provider,
    '--exit-after', '600', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the gateway did not start')), 20000);
    readline.createInterface({ input: child.stdout }).once('line', (l) => { clearTimeout(timer); resolve(l); });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code})`)));
  });
  const port = /listening on 127\.0\.0\.1:(\d+)/.exec(line)?.[1];
  if (!port) throw new Error(`unexpected first line: ${line}`);
  return { baseURL: `http://127.0.0.1:${port}/v1`, stop: () => child.kill('SIGTERM') };
}

// openai-node without streaming: the gateway builds one chat.completion from the stream.
async function openaiCreateWhole(baseURL, model) {
  const out = { choices: {}, error: null };
  try {
    const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0, timeout: 30000 });
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'go' }] });
    for (const c of completion.choices) {
      out.choices[c.index] = {
        text: c.message.content ?? '', reasoning: c.message.reasoning_content ?? '',
        calls: (c.message.tool_calls ?? []).map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments })),
        finish: c.finish_reason,
      };
    }
  } catch (e) {
    out.error = e;
  }
  return out;
}

// Chat Completions finish reasons as the converter normalises them; a stop after calls is tool_calls.
function expectedFinish(choice) {
  const raw = choice.finish_reason;
  if (raw === null) return 'length';
  const kind = { length: 'length', model_length: 'length', tool_calls: 'tool_calls', function_call: 'tool_calls',
    content_filter: 'content_filter', error: 'error' }[raw] ?? 'stop';
  return kind === 'stop' && choice.tool_calls.some((c) => c.arguments !== null) ? 'tool_calls' : kind;
}
const aiSdkFinish = { stop: 'stop', length: 'length', content_filter: 'content-filter', tool_calls: 'tool-calls' };

// Every client against `baseURL` for `model`, compared with `want` (the .expected.json shape).
async function checkClients(label, baseURL, model, want) {
  const names = [...new Set(want.choices.flatMap((c) => c.tool_calls.map((t) => t.name)))];
  const runs = [
    ['openai stream()', await openaiStreamHelper(baseURL, model), {}],
    ['openai create({stream})', await openaiCreateStream(baseURL, model), { reasoning: true }],
    ['openai create()', await openaiCreateWhole(baseURL, model), { reasoning: true }],
  ];
  if (want.choices.length === 1) runs.push(['ai-sdk streamText', await aiSdkStreamText(baseURL, model, names), { reasoning: true, aiSdk: true }]);
  for (const [client, got, how] of runs) {
    const l = `${label} ${client}`;
    if (want.error !== null) {
      check(`${l} raises an error`, got.error !== null);
      continue;
    }
    if (!check(`${l} no error`, got.error === null, String(got.error?.stack ?? got.error))) continue;
    for (const c of want.choices) {
      const ch = got.choices[c.index];
      if (!check(`${l} choice ${c.index} present`, ch !== undefined)) continue;
      check(`${l} text`, ch.text === c.text, JSON.stringify([ch.text.slice(0, 80), c.text.slice(0, 80)]));
      if (how.reasoning) check(`${l} reasoning`, (ch.reasoning ?? '') === c.reasoning, JSON.stringify([ch.reasoning, c.reasoning]));
      const calls = ch.calls.filter(Boolean);
      check(`${l} call count`, calls.length === c.tool_calls.length, `${calls.length} vs ${c.tool_calls.length}`);
      c.tool_calls.forEach((w, k) => {
        const g = calls[k];
        if (!g) return;
        check(`${l} call ${k} id`, w.id !== null ? g.id === w.id : typeof g.id === 'string' && g.id.length > 0, `${g.id} vs ${w.id}`);
        check(`${l} call ${k} name`, g.name === w.name, `${g.name} vs ${w.name}`);
        const a = how.aiSdk && w.arguments === null ? null : parsedOrNull(g.arguments);
        check(`${l} call ${k} arguments`, same(a, w.arguments), `${g.arguments} vs ${JSON.stringify(w.arguments)}`);
      });
      const finish = expectedFinish(c);
      check(`${l} finish`, ch.finish === (how.aiSdk ? aiSdkFinish[finish] : finish), `${ch.finish} vs ${finish}`);
    }
  }
}

// Made-up streams: Ollama's NDJSON, and a model that writes an xml-format call in its text.
const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk',
  created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const bodies = new Map([
  ['qwen3:8b', [
    { message: { role: 'assistant', content: '', thinking: 'Weather, so a call.' }, done: false },
    { message: { role: 'assistant', content: 'Checking Paris.' }, done: false },
    { message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }, done: false },
    { message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 31, eval_count: 17 },
  ].map((l) => `${JSON.stringify({ model: 'qwen3:8b', created_at: '2025-06-09T17:58:50Z', ...l })}\n`).join('')],
  ['xml-model', ['Let me look. ', '<tool name="get_wea', 'ther"><arguments><arg name="ci', 'ty">Paris</arg></arguments></to', 'ol>']
    .map((t) => chunk({ content: t })).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n'],
]);
const weather = (text, reasoning) => ({ error: null, choices: [{ index: 0, text, reasoning, finish_reason: 'stop',
  tool_calls: [{ id: null, name: 'get_weather', arguments: { city: 'Paris' } }] }] });

const fixtures = [];
for (const dir of fixturesDir ? ['openai_chat', 'deepseek', 'groq', 'xai', 'alibaba'] : []) {
  const full = path.join(fixturesDir, dir);
  if (!fs.existsSync(full)) continue;
  for (const name of fs.readdirSync(full).sort().filter((n) => n.endsWith('.sse'))) {
    const expected = path.join(full, name.replace(/\.sse$/, '.expected.json'));
    if (!fs.existsSync(expected)) continue;
    const key = `${dir}/${name}`;
    bodies.set(key, fs.readFileSync(path.join(full, name), 'utf8'));
    fixtures.push({ key, expected: JSON.parse(fs.readFileSync(expected, 'utf8')) });
  }
}
if (!fixturesDir) console.log('fixtures not found: only the made-up streams are checked');

const upstream = await startSseServer({ bodies, seed: 29 });
const gateways = [];
try {
  const upstreamURL = `${upstream.baseURL}/chat/completions`;
  const chat = await startGateway(upstreamURL, 'openai_chat');
  const ollama = await startGateway(upstreamURL, 'ollama');
  const xml = await startGateway(upstreamURL, 'openai_chat', ['--parser', 'xml']);
  gateways.push(chat, ollama, xml);
  for (const f of fixtures) await checkClients(f.key, chat.baseURL, f.key, f.expected);
  await checkClients('ollama', ollama.baseURL, 'qwen3:8b', weather('Checking Paris.', 'Weather, so a call.'));
  await checkClients('xml text', xml.baseURL, 'xml-model', weather('Let me look. ', ''));
  // An upstream error status reaches openai-node as an APIError with that status.
  const missing = await openaiCreateWhole(chat.baseURL, 'no-such-model');
  check('unknown model: APIError 404', missing.error?.status === 404, String(missing.error));
} finally {
  gateways.forEach((g) => g.stop());
  await upstream.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
