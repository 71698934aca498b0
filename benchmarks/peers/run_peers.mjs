#!/usr/bin/env node
// Runs ONE peer library on one recorded stream and prints one JSON line (format: README.md).
//
//   node run_peers.mjs --input FILE --dialect openai_chat|anthropic --peer NAME
//                      [--repeat K] [--single-run-over-s S] [--timeout-s N] [--content-bytes B]
//
// The peer runs in a worker thread so a run stuck in synchronous re-parsing can be killed at
// --timeout-s. SDK peers get a custom fetch whose Response body streams FILE in network-sized
// reads; preview peers split the same reads into SSE events themselves and re-parse the
// accumulated arguments after every delta, as a UI rendering a live preview would.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const READ_BYTES = 16 * 1024; // a typical socket read
const BASE_URL = 'http://127.0.0.1:9/v1'; // never contacted: every request goes to the custom fetch
const PROMPT = 'Write src/generated.txt.';
const WRITE_FILE_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' }, content: { type: 'string' } },
  required: ['path', 'content'],
  additionalProperties: false,
};

// peer name -> package whose version is reported, accepted dialects, and `load`, which imports
// the modules (outside the timed region) and returns the timed `(bytes, dialect) => {content}`.
const PEERS = {
  'openai6-chat-stream': { pkg: 'openai', dialects: ['openai_chat'], load: () => openaiChatStream('openai') },
  'openai7-chat-stream': { pkg: 'openai7', dialects: ['openai_chat'], load: () => openaiChatStream('openai7') },
  'vercel-openai': { pkg: '@ai-sdk/openai', dialects: ['openai_chat'], load: vercelOpenAI },
  'vercel-anthropic': { pkg: '@ai-sdk/anthropic', dialects: ['anthropic'], load: vercelAnthropic },
  'anthropic-messages-stream': { pkg: '@anthropic-ai/sdk', dialects: ['anthropic'], load: anthropicMessagesStream },
  'partial-json': { pkg: 'partial-json', dialects: ['openai_chat', 'anthropic'], load: partialJsonPreview },
  jsonrepair: { pkg: 'jsonrepair', dialects: ['openai_chat', 'anthropic'], load: jsonrepairPreview },
  'streamparser-json': { pkg: '@streamparser/json', dialects: ['openai_chat', 'anthropic'], load: streamparserJson },
};

function packageVersion(dir) {
  return JSON.parse(readFileSync(new URL(`./node_modules/${dir}/package.json`, import.meta.url))).version;
}

// ---------------------------------------------------------------- transport

function* networkReads(bytes) {
  for (let offset = 0; offset < bytes.length; offset += READ_BYTES) {
    yield bytes.slice(offset, offset + READ_BYTES); // a copy, like a fresh socket buffer
  }
}

function streamingFetch(bytes) {
  return async () => {
    const reads = networkReads(bytes);
    const body = new ReadableStream({
      pull(controller) {
        const next = reads.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

// Minimal SSE reader (LF framing, as our generators write): yields each event's data.
function* sseData(bytes) {
  const decoder = new TextDecoder();
  let pending = '';
  for (const chunk of networkReads(bytes)) {
    const text = pending + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n', start)) {
      const data = [];
      for (const line of text.slice(start, end).split('\n')) {
        if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
      if (data.length > 0) yield data.join('\n');
      start = end + 2;
    }
    pending = text.slice(start);
  }
}

// The raw tool-argument deltas of the (single) write_file call.
function* argumentDeltas(bytes, dialect) {
  for (const data of sseData(bytes)) {
    if (data === '[DONE]') return;
    const event = JSON.parse(data);
    if (dialect === 'anthropic') {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        yield event.delta.partial_json;
      }
      continue;
    }
    for (const call of event.choices?.[0]?.delta?.tool_calls ?? []) {
      if (call.function?.arguments) yield call.function.arguments;
    }
  }
}

// ---------------------------------------------------------------- SDK peers

// strict: true is what makes openai-node parse arguments while streaming (parsed_arguments);
// without it the SDK only concatenates and there is nothing to compare.
async function openaiChatStream(pkg) {
  const { default: OpenAI } = await import(pkg);
  return async (bytes) => {
    const client = new OpenAI({ apiKey: 'bench', baseURL: BASE_URL, fetch: streamingFetch(bytes), maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: PROMPT }],
      tools: [{ type: 'function', function: { name: 'write_file', parameters: WRITE_FILE_SCHEMA, strict: true } }],
    });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0].message.tool_calls.at(-1);
    return { content: JSON.parse(call.function.arguments).content };
  };
}

async function vercelStream(makeModel) {
  const { streamText, tool, jsonSchema } = await import('ai');
  return async (bytes) => {
    const result = streamText({
      model: makeModel(streamingFetch(bytes)),
      prompt: PROMPT,
      tools: { write_file: tool({ inputSchema: jsonSchema(WRITE_FILE_SCHEMA) }) },
    });
    let content;
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
      if (part.type === 'tool-call') content = part.input.content;
    }
    return { content };
  };
}

async function vercelOpenAI() {
  const { createOpenAI } = await import('@ai-sdk/openai');
  return vercelStream((fetch) => createOpenAI({ apiKey: 'bench', baseURL: BASE_URL, fetch }).chat('gpt-4.1'));
}

async function vercelAnthropic() {
  const { createAnthropic } = await import('@ai-sdk/anthropic');
  return vercelStream((fetch) => createAnthropic({ apiKey: 'bench', baseURL: BASE_URL, fetch })('claude-sonnet-4-0'));
}

async function anthropicMessagesStream() {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  return async (bytes) => {
    const client = new Anthropic({ apiKey: 'bench', baseURL: BASE_URL, fetch: streamingFetch(bytes), maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: 'claude-sonnet-4-0',
        max_tokens: 64000,
        messages: [{ role: 'user', content: PROMPT }],
        tools: [{ name: 'write_file', input_schema: WRITE_FILE_SCHEMA }],
      })
      .finalMessage();
    return { content: message.content.findLast((block) => block.type === 'tool_use').input.content };
  };
}

// ---------------------------------------------------------------- preview peers

// A prefix that the preview cannot handle (e.g. one ending inside "\u00") keeps the previous
// preview, as a UI would; such deltas are counted, not fatal.
function previewLoop(bytes, dialect, preview) {
  let accumulated = '';
  let latest;
  let failures = 0;
  for (const delta of argumentDeltas(bytes, dialect)) {
    accumulated += delta;
    try {
      latest = preview(accumulated);
    } catch {
      failures += 1;
    }
  }
  return { content: latest?.content, previewFailures: failures };
}

async function partialJsonPreview() {
  const { parse } = await import('partial-json');
  return (bytes, dialect) => previewLoop(bytes, dialect, (text) => parse(text));
}

async function jsonrepairPreview() {
  const { jsonrepair } = await import('jsonrepair');
  return (bytes, dialect) => previewLoop(bytes, dialect, (text) => JSON.parse(jsonrepair(text)));
}

// The linear JS peer: one incremental tokenizer fed each delta, emitting the value at $.content.
async function streamparserJson() {
  const { JSONParser } = await import('@streamparser/json');
  return (bytes, dialect) => {
    const parser = new JSONParser({ paths: ['$.content'] });
    let content;
    parser.onValue = ({ value }) => {
      content = value;
    };
    for (const delta of argumentDeltas(bytes, dialect)) parser.write(delta);
    return { content, previewFailures: 0 };
  };
}

// ---------------------------------------------------------------- worker: timed runs

async function workerMain({ input, dialect, peer, repeat, singleRunOverS, contentBytes }) {
  const bytes = readFileSync(input);
  // Reference content from a plain, untimed parse of the same bytes.
  let argumentsText = '';
  let deltas = 0;
  for (const delta of argumentDeltas(bytes, dialect)) {
    argumentsText += delta;
    deltas += 1;
  }
  const expected = JSON.parse(argumentsText).content;
  const expectedBytes = Buffer.byteLength(expected, 'utf8');
  if (contentBytes !== undefined && expectedBytes !== contentBytes) {
    throw new Error(`input carries ${expectedBytes} content bytes, --content-bytes says ${contentBytes}`);
  }
  parentPort.postMessage({ type: 'meta', content_bytes: expectedBytes, deltas });

  const run = await PEERS[peer].load();
  for (let i = 0; i < repeat; i += 1) {
    parentPort.postMessage({ type: 'start' });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const result = await run(bytes, dialect);
    const seconds = (performance.now() - t0) / 1000;
    // CPU time of the whole process (V8's helper threads included): unlike wall time, it does not
    // grow while the shared machine gives the run no core.
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    if (
      typeof result.content !== 'string' ||
      Buffer.byteLength(result.content, 'utf8') !== expectedBytes ||
      result.content !== expected
    ) {
      const got = typeof result.content === 'string' ? Buffer.byteLength(result.content, 'utf8') : result.content;
      throw new Error(`final content mismatch: got ${got} bytes, expected ${expectedBytes}`);
    }
    parentPort.postMessage({ type: 'run', seconds, cpu_seconds: cpuSeconds, preview_failures: result.previewFailures });
    if (singleRunOverS !== undefined && seconds > singleRunOverS) break;
  }
}

// ---------------------------------------------------------------- main: CLI, timeout, report

function parseArgs(argv) {
  const options = { repeat: 1 };
  const numeric = {
    '--repeat': 'repeat',
    '--single-run-over-s': 'singleRunOverS',
    '--timeout-s': 'timeoutS',
    '--content-bytes': 'contentBytes',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`missing value for ${flag}`);
    if (flag === '--input') options.input = value;
    else if (flag === '--dialect') options.dialect = value;
    else if (flag === '--peer') options.peer = value;
    else if (flag in numeric) {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new Error(`bad number for ${flag}: ${value}`);
      options[numeric[flag]] = n;
    } else throw new Error(`unknown option ${flag}`);
  }
  if (!options.input || !options.dialect || !options.peer)
    throw new Error('--input, --dialect and --peer are required');
  const peer = PEERS[options.peer];
  if (!peer) throw new Error(`unknown peer ${options.peer}; peers: ${Object.keys(PEERS).join(', ')}`);
  if (!peer.dialects.includes(options.dialect))
    throw new Error(`${options.peer} reads ${peer.dialects.join(' or ')}, not ${options.dialect}`);
  if (!(options.repeat >= 1)) throw new Error('--repeat must be at least 1');
  return options;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round6 = (x) => Math.round(x * 1e6) / 1e6;

function mainThread() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`run_peers.mjs: ${error.message}`);
    process.exit(2);
  }
  const line = {
    peer: options.peer,
    version: packageVersion(PEERS[options.peer].pkg),
    dialect: options.dialect,
    input: basename(options.input),
    bytes: readFileSync(options.input).length,
    node: process.version,
    load1: round6(loadavg()[0]), // the machine is shared: keep the context of each number
  };
  const seconds = [];
  const cpuSeconds = [];
  let failures;
  let timer;
  let finished = false;
  const finish = (extra, code) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    const out = { ...line, seconds: seconds.map(round6), cpu_seconds: cpuSeconds.map(round6), ...extra };
    if (failures !== undefined) out.preview_failures = failures;
    console.log(JSON.stringify(out));
    process.exitCode = code;
  };

  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  worker.on('message', (message) => {
    if (message.type === 'meta') {
      line.content_bytes = message.content_bytes;
      line.deltas = message.deltas;
    } else if (message.type === 'start' && options.timeoutS !== undefined) {
      timer = setTimeout(() => {
        finish({ timed_out: true, timeout_s: options.timeoutS }, 0);
        worker.terminate();
      }, options.timeoutS * 1000);
    } else if (message.type === 'run') {
      clearTimeout(timer);
      seconds.push(message.seconds);
      cpuSeconds.push(message.cpu_seconds);
      if (message.preview_failures !== undefined) failures = message.preview_failures;
    }
  });
  worker.on('error', (error) => finish({ error: String(error?.message ?? error) }, 1));
  worker.on('exit', () => finish({ median_s: round6(median(seconds)), median_cpu_s: round6(median(cpuSeconds)) }, 0));
}

if (isMainThread) {
  mainThread();
} else {
  globalThis.AI_SDK_LOG_WARNINGS = false;
  await workerMain(workerData);
}
