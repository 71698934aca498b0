// Coding agents, unmodified, run a tool loop through toolstream-gateway in front of a scripted
// model (fake_model.mjs), once per style of model: native tool_calls deltas, and raw Hermes and
// Qwen3-Coder text with <think> (the gateway with --parser and --reasoning-parser qwen3).
//
//   node gateway/run_agents.mjs --gateway PATH/toolstream-gateway
//
// - Claude Code (@anthropic-ai/claude-code, `claude -p`, /v1/messages, x-api-key): the model
//   writes a file of more than 64 KiB (non-ASCII, quotes, backslashes, markup-like text) with
//   `Write`, then runs `Bash` (which writes a marker file), then answers. `claude -p` must exit 0
//   and print the answer; both files are checked byte for byte, and the model must have got
//   each tool result as a `role: "tool"` message after its own call.
// - Codex CLI (@openai/codex, `codex exec`, /v1/responses, Bearer): the model calls
//   `exec_command` (which writes a marker file) and answers after the function_call_output; then,
//   under a model name Codex knows (so that it offers its free-form `apply_patch` custom tool),
//   calls `apply_patch` with a patch that adds a file. `codex exec` must exit 0 and print the
//   answer; the files are checked byte for byte, and the model must have got its call back whole
//   and the tool's output as a `role: "tool"` message.
// Every agent runs with a scratch HOME / CODEX_HOME and work dir, a minimal environment, and a
// timeout; a failure prints its output's tail, the gateway's log and what the model was sent.
// Nothing is skipped: without node or the packages the test fails (node_clients.cmake).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checker, commandLine, runChild, same, startGateway, tail } from './harness.mjs';
import { contentText, scripted, startFakeModel, toolMessages } from './fake_model.mjs';

const args = commandLine();
if (!args.gateway) {
  console.error('usage: node gateway/run_agents.mjs --gateway PATH');
  process.exit(2);
}
setTimeout(() => { console.error('agent tests: over time, stopped'); process.exit(1); }, 900000).unref();
const started = Date.now();
const { check, report } = checker();
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
// Claude Code's postinstall puts its native binary in place of a stub; where npm ran no scripts,
// its wrapper finds the binary (a node process in between).
const claudeWrapper = fileURLToPath(new URL('../node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs', import.meta.url));
const claudeIsNative = (() => {
  const head = Buffer.alloc(4);
  const fd = fs.openSync(bin('claude'), 'r');
  try { fs.readSync(fd, head, 0, 4, 0); } finally { fs.closeSync(fd); }
  return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));   // ELF
})();
const claude = claudeIsNative ? [bin('claude')] : [process.execPath, claudeWrapper];
const agentTimeoutMs = 180000;
const key = 'toolstream-agents-key';

// The file Claude Code writes: 64 KiB and more of lines with accents, CJK, emoji, quotes,
// backslashes, a tab, and text that looks like the markup of both raw formats.
function bigText() {
  let text = '';
  for (let i = 0; text.length < 70000; i++) {
    text += `${String(i).padStart(5, '0')}: café "quoted" \\ back\\slash \\n not-a-newline 日本語 🎉👩‍💻\tend`
      + `${i % 50 === 7 ? ' <tool_call>{"name": "x"}</tool_call> </parameter> <function=y> {"json": [1, "2"]}' : ''}\n`;
  }
  return text;
}
const big = bigText();
const claudeMarker = 'bash marker: café 日本 🎉 "q" \\\n';
const codexMarker = 'codex marker: naïve 日本 🎉 "q" \\\n';
const claudeAnswer = 'All done ✅: big.txt and marker.txt are written.';
const codexAnswer = 'Codex done ✅: the file is written.';

const scenarios = {};
const aliases = {};
const fake = await startFakeModel({ scenarios, aliases, fallback: () => ({ text: 'ok' }), maxRequests: 200,
  lifetimeMs: 900000, seed: 11 });
const styles = [['native', []], ['hermes', ['--parser', 'hermes', '--reasoning-parser', 'qwen3']],
  ['qwen3_coder', ['--parser', 'qwen3_coder', '--reasoning-parser', 'qwen3']]];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolstream-agents-'));
const baseEnv = { PATH: process.env.PATH, LANG: 'C.UTF-8', TMPDIR: scratch };

// The upstream requests of one model name, and what each one's last turn holds.
const requestsOf = (model, from = 0) => fake.requests.slice(from).filter((r) => r.body?.model === model).map((r) => r.body);
function lastCallAndResults(body) {
  const assistant = (body.messages ?? []).findLast((m) => m.role === 'assistant' && m.tool_calls?.length);
  const call = assistant?.tool_calls?.[0];
  let input;
  try { input = JSON.parse(call?.function?.arguments ?? ''); } catch { input = undefined; }
  return { call, input, results: toolMessages(body) };
}
const readOrNull = (file) => (fs.existsSync(file) ? fs.readFileSync(file) : null);
const firstDifference = (a, b) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

function explain(label, run, gateway, model, from = 0) {
  console.log(`--- ${label}: exit ${run.code}${run.signal ? ` (${run.signal})` : ''}${run.timedOut ? ', timed out' : ''}, ${run.ms} ms`);
  console.log(`--- stdout (tail)\n${tail(run.stdout)}\n--- stderr (tail)\n${tail(run.stderr)}`);
  console.log(`--- gateway log (tail)\n${tail(gateway.log(), 20)}`);
  for (const body of requestsOf(model, from)) {
    console.log(`--- upstream request: ${(body.messages ?? []).map((m) => `${m.role}${m.tool_calls ? `(${m.tool_calls.map((c) => c.function.name)})` : ''}`).join(' ')}`);
  }
}

async function claudeCode(style, gateway) {
  const label = `${style} claude -p`;
  const dir = path.join(scratch, `claude-${style}`);
  const work = path.join(dir, 'work');
  fs.mkdirSync(path.join(dir, 'home'), { recursive: true });
  fs.mkdirSync(work, { recursive: true });
  const write = { name: 'Write', arguments: { file_path: path.join(work, 'big.txt'), content: big } };
  const bash = { name: 'Bash', arguments: { command: `printf '%s\\n' '${claudeMarker.slice(0, -1)}' > marker.txt`,
    description: 'Write the marker file' } };
  const name = `claude_${style}`;
  scenarios[name] = scripted([
    { reasoning: 'The user wants a big file: "Write" it, then the marker.', text: 'Writing big.txt — 日本 🎉.', calls: [write] },
    { reasoning: 'Written; now the marker.', text: 'Now the marker.', calls: [bash] },
    { reasoning: 'Both tools ran.', text: claudeAnswer },
  ]);
  const model = `${style}/${name}`;
  const run = await runChild(claude[0], [...claude.slice(1), '-p', 'Write big.txt, then run the marker command.', '--allowedTools', 'Write Bash',
    '--permission-mode', 'acceptEdits', '--model', model], {
    cwd: work, timeoutMs: agentTimeoutMs,
    env: { ...baseEnv, HOME: path.join(dir, 'home'), ANTHROPIC_BASE_URL: gateway.origin, ANTHROPIC_API_KEY: key,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_MAX_RETRIES: '0' },   // a failing gateway fails the run at once, not after minutes of retries
  });
  let ok = check(`${label} exits 0`, run.code === 0 && !run.timedOut, `exit ${run.code}`);
  ok = check(`${label} prints the answer`, run.stdout.trim() === claudeAnswer, JSON.stringify(tail(run.stdout, 5))) && ok;
  const written = readOrNull(path.join(work, 'big.txt'));
  ok = check(`${label} Write: big.txt byte for byte (${Buffer.byteLength(big)} bytes)`, written !== null && written.equals(Buffer.from(big)),
    () => (written === null ? 'missing' : `${written.length} bytes, first difference at byte ${firstDifference(written, Buffer.from(big))}`)) && ok;
  const marker = readOrNull(path.join(work, 'marker.txt'));
  ok = check(`${label} Bash: marker.txt byte for byte`, marker !== null && marker.equals(Buffer.from(claudeMarker)),
    JSON.stringify(marker?.toString())) && ok;
  // What the model got back: its own calls, then their results as `role: "tool"` messages.
  const bodies = requestsOf(model);
  ok = check(`${label} three turns upstream`, bodies.length === 3, `${bodies.length} requests`) && ok;
  [write, bash].forEach((want, k) => {
    if (!bodies[k + 1]) return;
    const { call, input, results } = lastCallAndResults(bodies[k + 1]);
    ok = check(`${label} upstream turn ${k + 2}: the ${want.name} call came back whole`, call?.function?.name === want.name
      && same(input, want.arguments), JSON.stringify(call).slice(0, 300)) && ok;
    ok = check(`${label} upstream turn ${k + 2}: its result as role tool`, results.length === k + 1
      && results[k].tool_call_id === call?.id && contentText(results[k].content).length > 0,
    JSON.stringify(results.map((m) => [m.tool_call_id, contentText(m.content).slice(0, 200)]))) && ok;
  });
  if (!ok) explain(label, run, gateway, model);
  console.log(`${label}: ${run.ms} ms`);
}

// Codex's two kinds of tool: `exec_command` (a function: {cmd, workdir?, login?, tty?,
// yield_time_ms?, ...}, as the tools it sends say) under the model name STYLE/codex_exec_STYLE, and
// the free-form `apply_patch` (a custom tool, offered for a model Codex knows: gpt-5.5, aliased).
const codexPatch = '*** Begin Patch\n*** Add File: patched.txt\n+patched: crème "q" \\ 日本 🎉\n+<tool_call> </parameter>\n*** End Patch\n';
const codexCases = {
  exec: (work) => ({ file: 'codex_marker.txt', bytes: codexMarker, output: /exit(ed)? (with )?code:? 0/i,
    call: { name: 'exec_command', arguments: { cmd: `printf '%s\\n' '${codexMarker.slice(0, -1)}' > codex_marker.txt`,
      workdir: work, login: false, yield_time_ms: 10000 } } }),
  patch: () => ({ alias: 'gpt-5.5', file: 'patched.txt', bytes: 'patched: crème "q" \\ 日本 🎉\n<tool_call> </parameter>\n',
    output: /patched\.txt/, call: { name: 'apply_patch', arguments: { input: codexPatch } } }),
};

async function codexExec(style, gateway, kind) {
  const label = `${style} codex exec (${kind})`;
  const dir = path.join(scratch, `codex-${kind}-${style}`);
  const work = path.join(dir, 'work');
  for (const d of ['home', 'codexhome', 'work']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  const c = codexCases[kind](work);
  const name = `codex_${kind}_${style}`;
  scenarios[name] = scripted([
    { reasoning: `Run ${c.call.name} — "quoted".`, text: 'Writing the file.', calls: [c.call] },
    { reasoning: 'It ran.', text: codexAnswer },
  ]);
  const model = c.alias ?? `${style}/${name}`;
  if (c.alias) aliases[c.alias] = `${style}/${name}`;
  const from = fake.requests.length;
  const provider = `{name="local",base_url="${gateway.baseURL}",wire_api="responses",env_key="TOOLSTREAM_AGENT_KEY",`
    + 'request_max_retries=0,stream_max_retries=0}';
  const run = await runChild(bin('codex'), ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox',
    '-c', 'model_provider="local"', '-c', `model_providers.local=${provider}`, '-m', model, 'Write the file.'], {
    cwd: work, timeoutMs: agentTimeoutMs,
    env: { ...baseEnv, HOME: path.join(dir, 'home'), CODEX_HOME: path.join(dir, 'codexhome'), TOOLSTREAM_AGENT_KEY: key },
  });
  let ok = check(`${label} exits 0`, run.code === 0 && !run.timedOut, `exit ${run.code}`);
  ok = check(`${label} prints the answer`, run.stdout.includes(codexAnswer), JSON.stringify(tail(run.stdout, 5))) && ok;
  const written = readOrNull(path.join(work, c.file));
  ok = check(`${label} ${c.call.name}: ${c.file} byte for byte`, written !== null && written.equals(Buffer.from(c.bytes)),
    JSON.stringify(written?.toString())) && ok;
  const bodies = requestsOf(model, from);
  ok = check(`${label} offered ${c.call.name} upstream`, bodies[0]?.tools?.some((t) => t.function?.name === c.call.name),
    JSON.stringify(bodies[0]?.tools?.map((t) => t.function?.name))) && ok;
  ok = check(`${label} two turns upstream`, bodies.length === 2, `${bodies.length} requests`) && ok;
  if (bodies[1]) {
    const { call, input, results } = lastCallAndResults(bodies[1]);
    ok = check(`${label} upstream: the ${c.call.name} call came back whole`, call?.function?.name === c.call.name
      && same(input, c.call.arguments), JSON.stringify(call)) && ok;
    ok = check(`${label} upstream: its output as role tool`, results.length === 1 && results[0].tool_call_id === call?.id
      && c.output.test(contentText(results[0].content)), JSON.stringify(results)) && ok;
  }
  if (!ok) explain(label, run, gateway, model, from);
  console.log(`${label}: ${run.ms} ms`);
}

const gateways = [];
let status = 1;
try {
  for (const [style, extra] of styles) {
    const gateway = await startGateway(args.gateway, fake.url, ['--api-key-env', 'TOOLSTREAM_TEST_KEY', ...extra],
      { ...process.env, TOOLSTREAM_TEST_KEY: key });
    gateways.push(gateway);
    // Claude Code takes most of this test's time: a raw-text style and the native one are what
    // it must be seen with; Hermes is Codex's and the API clients'.
    if (style !== 'hermes') await claudeCode(style, gateway);
    await codexExec(style, gateway, 'exec');
    await codexExec(style, gateway, 'patch');
  }
  status = report();
} finally {
  await Promise.all(gateways.map((g) => g.stop()));
  await fake.close();
  if (status === 0) fs.rmSync(scratch, { recursive: true, force: true });
  else console.log(`scratch kept: ${scratch}`);
}
console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(status);
