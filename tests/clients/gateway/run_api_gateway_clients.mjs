// Unmodified Anthropic and OpenAI Responses clients talk to toolstream-gateway's /v1/messages and
// /v1/responses, in front of a scripted model (fake_model.mjs) that speaks Chat Completions.
//
//   node gateway/run_api_gateway_clients.mjs --gateway PATH/toolstream-gateway
//
// For each style of model (native tool_calls deltas; raw Hermes and Qwen3-Coder text with
// <think>, read with --parser and --reasoning-parser qwen3), a gateway (key checked, both headers):
// - @anthropic-ai/sdk messages.stream().finalMessage() and messages.create(): thinking, text and
//   tool_use inputs whole (inputs equal the model's arguments), stop_reason tool_use; the tool
//   results sent back reach the model as `role: "tool"` messages, and the answer ends end_turn;
//   an upstream cut in the middle of a call makes the SDK raise.
// - openai responses.stream().finalResponse() and responses.create(): function_call arguments
//   equal, status completed; the output and function_call_output items sent back reach the model;
//   a cut upstream raises. A custom tool's call comes back as a custom_tool_call with its input,
//   a namespaced tool's under its own name and namespace.
// - The AI SDK's streamText through @ai-sdk/anthropic and @ai-sdk/openai (responses): the same calls.
// Nothing is skipped: without node or the packages the test fails (node_clients.cmake).
import { checker, commandLine, same, startGateway } from './harness.mjs';
import { contentText, expectedRead, startFakeModel, toolMessages } from './fake_model.mjs';
import { aiSdkStream, anthropicStream, openaiResponsesStream } from '../api_clients.mjs';

const args = commandLine();
if (!args.gateway) {
  console.error('usage: node gateway/run_api_gateway_clients.mjs --gateway PATH');
  process.exit(2);
}
setTimeout(() => { console.error('api gateway client tests: over time, stopped'); process.exit(1); }, 600000).unref();
const started = Date.now();
const { check, report } = checker();

const schemas = {
  get_weather: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, options: { type: 'object' } },
    required: ['city'] },
  get_time: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
  lookup: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};
const weatherArgs = { city: 'Paris «Île-de-France» 日本 🌧 "quoted" \\ back\\slash', days: 3,
  options: { detail: true, tags: ['a', 'b"c'], nested: { n: 1.5 } } };
const timeArgs = { zone: 'Europe/Paris' };
const patchInput = '*** Begin Patch\n*** Add File: notes.txt\n+café "q" \\ 日本 🎉\n+<tag> & </parameter>\n*** End Patch\n';
const firstTurn = { reasoning: 'The user asks about "Paris" — two tools, ünïcode.', text: 'Checking «Paris» 🌧.',
  calls: [{ name: 'get_weather', arguments: weatherArgs }, { name: 'get_time', arguments: timeArgs }] };
const toolAnswers = ['18 °C, "cloudy" \\ 雨', '14:05 CET'];
const finalTurn = (body) => ({ reasoning: 'Both tools answered.',
  text: `Done: ${toolMessages(body).map((m) => contentText(m.content)).join(' | ')}` });
const finalText = `Done: ${toolAnswers.join(' | ')}`;

const scenarios = {
  weather: (body) => (toolMessages(body).length === 0 ? firstTurn : finalTurn(body)),
  die: () => ({ text: 'Writing.', calls: [{ name: 'get_weather', arguments: weatherArgs }], die: true }),
  patch: (body) => (toolMessages(body).length === 0
    ? { text: 'Patching.', calls: [{ name: 'apply_patch', arguments: { input: patchInput } }, { name: 'ns__lookup', arguments: { key: 'k1' } }] }
    : finalTurn(body)),
};

const fake = await startFakeModel({ scenarios, maxRequests: 400, seed: 7 });
const styles = [['native', []], ['hermes', ['--parser', 'hermes', '--reasoning-parser', 'qwen3']],
  ['qwen3_coder', ['--parser', 'qwen3_coder', '--reasoning-parser', 'qwen3']]];
const gateways = [];

const anthropicTools = ['get_weather', 'get_time'].map((name) => ({ name, description: `the ${name} tool`, input_schema: schemas[name] }));
const responsesTools = ['get_weather', 'get_time'].map((name) => ({ type: 'function', name, description: name, parameters: schemas[name] }));
const parsed = (text) => { try { return JSON.parse(text); } catch { return undefined; } };
const errorText = (e) => String(e?.stack ?? e);

// What the model got in the requests made since `from`: the last one's tool messages, and the
// assistant message that holds their calls.
function upstreamTurn(from) {
  const body = fake.requests.slice(from).at(-1)?.body ?? {};
  const assistant = (body.messages ?? []).findLast((m) => m.role === 'assistant');
  return { tools: toolMessages(body), calls: assistant?.tool_calls ?? [], body };
}

// The first turn as a client read it: thinking, text, the two calls with their arguments.
function checkFirstTurn(label, style, got, { inputs = 'object', finish, reasoning = true }) {
  if (!check(`${label} no error`, got.error === null, errorText(got.error))) return false;
  const want = expectedRead(style, firstTurn);
  check(`${label} text`, got.text === want.text, JSON.stringify([got.text, want.text]));
  if (reasoning) check(`${label} reasoning`, got.reasoning === want.reasoning, JSON.stringify([got.reasoning, want.reasoning]));
  check(`${label} finish`, got.finish === finish, `${got.finish} vs ${finish}`);
  check(`${label} two calls`, got.calls.length === 2, JSON.stringify(got.calls).slice(0, 400));
  firstTurn.calls.forEach((w, k) => {
    const g = got.calls[k];
    if (!g) return;
    check(`${label} call ${k} id`, typeof g.id === 'string' && g.id.length > 0, g.id);
    check(`${label} call ${k} name`, g.name === w.name, g.name);
    const input = inputs === 'text' ? parsed(g.input) : g.input;
    check(`${label} call ${k} arguments`, same(input, w.arguments), `${JSON.stringify(g.input)} vs ${JSON.stringify(w.arguments)}`);
  });
  return true;
}

// The second turn: the final text, and the tool results reached the model as `role: "tool"`.
function checkFinalTurn(label, got, from, ids, finish) {
  if (!check(`${label} no error`, got.error === null, errorText(got.error))) return;
  check(`${label} text`, got.text.endsWith(finalText), JSON.stringify(got.text));
  check(`${label} finish`, got.finish === finish, `${got.finish} vs ${finish}`);
  const seen = upstreamTurn(from);
  check(`${label} upstream got the results as role tool`, same(seen.tools.map((m) => [m.tool_call_id, contentText(m.content)]),
    ids.map((id, k) => [id, toolAnswers[k]])), JSON.stringify(seen.tools));
  check(`${label} upstream got the calls`, same(seen.calls.map((c) => [c.id, c.function.name, parsed(c.function.arguments)]),
    ids.map((id, k) => [id, firstTurn.calls[k].name, firstTurn.calls[k].arguments])), JSON.stringify(seen.calls).slice(0, 600));
}

async function anthropicChecks(style, baseURL) {
  const model = `${style}/weather`;
  const l = `${style} anthropic-sdk`;
  const first = await anthropicStream(baseURL, model, { tools: anthropicTools });
  if (checkFirstTurn(`${l} stream()`, style, first, { finish: 'tool_use' })) {
    const from = fake.requests.length;
    const ids = first.calls.map((c) => c.id);
    const messages = [{ role: 'user', content: 'go' }, { role: 'assistant', content: first.message.content },
      { role: 'user', content: ids.map((id, k) => ({ type: 'tool_result', tool_use_id: id, content: toolAnswers[k] })) }];
    const second = await anthropicStream(baseURL, model, { tools: anthropicTools, messages });
    checkFinalTurn(`${l} stream() after tool_result`, second, from, ids, 'end_turn');
    const whole = await anthropicStream(baseURL, model, { stream: false, tools: anthropicTools, messages });
    checkFinalTurn(`${l} create() after tool_result`, whole, from + 1, ids, 'end_turn');
  }
  checkFirstTurn(`${l} create()`, style, await anthropicStream(baseURL, model, { stream: false, tools: anthropicTools }),
    { finish: 'tool_use' });
  for (const stream of [true, false]) {
    const cut = await anthropicStream(baseURL, `${style}/die`, { stream, tools: anthropicTools });
    check(`${l} ${stream ? 'stream()' : 'create()'} upstream cut mid-call raises`, cut.error !== null && cut.finish === null,
      JSON.stringify({ finish: cut.finish, calls: cut.calls }));
  }
}

async function responsesChecks(style, baseURL) {
  const model = `${style}/weather`;
  const l = `${style} openai responses`;
  const first = await openaiResponsesStream(baseURL, model, { tools: responsesTools });
  if (checkFirstTurn(`${l}.stream()`, style, first, { inputs: 'text', finish: 'completed' })) {
    check(`${l}.stream() calls completed`, first.calls.every((c) => c.status === 'completed'), JSON.stringify(first.calls));
    const from = fake.requests.length;
    const ids = first.calls.map((c) => c.id);
    const input = [{ role: 'user', content: 'go' }, ...first.response.output,
      ...ids.map((id, k) => ({ type: 'function_call_output', call_id: id, output: toolAnswers[k] }))];
    const second = await openaiResponsesStream(baseURL, model, { tools: responsesTools, input });
    checkFinalTurn(`${l}.stream() after function_call_output`, second, from, ids, 'completed');
    const whole = await openaiResponsesStream(baseURL, model, { stream: false, tools: responsesTools, input });
    checkFinalTurn(`${l}.create() after function_call_output`, whole, from + 1, ids, 'completed');
  }
  checkFirstTurn(`${l}.create()`, style, await openaiResponsesStream(baseURL, model, { stream: false, tools: responsesTools }),
    { inputs: 'text', finish: 'completed' });
  for (const stream of [true, false]) {
    const cut = await openaiResponsesStream(baseURL, `${style}/die`, { stream, tools: responsesTools });
    check(`${l} ${stream ? 'stream()' : 'create()'} upstream cut mid-call raises`, cut.error !== null && cut.finish !== 'completed',
      JSON.stringify({ finish: cut.finish, calls: cut.calls }));
  }
  // A custom tool (free-form input) and a namespaced function, as Codex offers them.
  const tools = [{ type: 'custom', name: 'apply_patch', description: 'Applies a patch.' },
    { type: 'namespace', name: 'ns', description: 'A namespace.', tools: [{ type: 'function', name: 'lookup', description: 'l', parameters: schemas.lookup }] }];
  for (const stream of [true, false]) {
    const lc = `${l}.${stream ? 'stream' : 'create'}() custom and namespaced tools`;
    const got = await openaiResponsesStream(baseURL, `${style}/patch`, { stream, tools });
    if (!check(`${lc} no error`, got.error === null, errorText(got.error))) continue;
    const [patch, lookup] = got.calls;
    check(`${lc} custom_tool_call input`, patch?.custom === true && patch.name === 'apply_patch' && patch.input === patchInput,
      JSON.stringify(patch));
    check(`${lc} namespaced call`, lookup?.name === 'lookup' && lookup.namespace === 'ns' && same(parsed(lookup.input), { key: 'k1' }),
      JSON.stringify(lookup));
    if (!stream || !patch || !lookup) continue;
    const from = fake.requests.length;
    const input = [{ role: 'user', content: 'go' }, ...got.response.output,
      { type: 'custom_tool_call_output', call_id: patch.id, output: toolAnswers[0] },
      { type: 'function_call_output', call_id: lookup.id, output: toolAnswers[1] }];
    const second = await openaiResponsesStream(baseURL, `${style}/patch`, { tools, input });
    check(`${lc} answered after the outputs`, second.error === null && second.text.endsWith(finalText), errorText(second.error) + second.text);
    const seen = upstreamTurn(from);
    check(`${lc} upstream got the calls as functions`, same(seen.calls.map((c) => [c.function.name, parsed(c.function.arguments)]),
      [['apply_patch', { input: patchInput }], ['ns__lookup', { key: 'k1' }]]), JSON.stringify(seen.calls));
    check(`${lc} upstream got the outputs as role tool`, same(seen.tools.map((m) => [m.tool_call_id, contentText(m.content)]),
      [[patch.id, toolAnswers[0]], [lookup.id, toolAnswers[1]]]), JSON.stringify(seen.tools));
  }
}

async function aiSdkChecks(style, baseURL) {
  for (const kind of ['anthropic', 'responses']) {
    const got = await aiSdkStream(kind, baseURL, `${style}/weather`, ['get_weather', 'get_time'], schemas);
    // The AI SDK's Responses model reads reasoning summaries only: no reasoning there.
    checkFirstTurn(`${style} ai-sdk ${kind} streamText`, style, got, { finish: 'tool-calls', reasoning: kind === 'anthropic' });
  }
}

let status = 1;
try {
  for (const [style, extra] of styles) {
    const gateway = await startGateway(args.gateway, fake.url, ['--api-key-env', 'TOOLSTREAM_TEST_KEY', ...extra],
      { ...process.env, TOOLSTREAM_TEST_KEY: 'test' });
    gateways.push(gateway);
    const before = Date.now();
    await anthropicChecks(style, gateway.baseURL);
    await responsesChecks(style, gateway.baseURL);
    await aiSdkChecks(style, gateway.baseURL);
    console.log(`${style}: ${Date.now() - before} ms`);
  }
  status = report();
} finally {
  if (status !== 0) for (const g of gateways) console.log(`--- gateway log (tail)\n${g.log().split('\n').slice(-30).join('\n')}`);
  await Promise.all(gateways.map((g) => g.stop()));
  await fake.close();
}
console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(status);
