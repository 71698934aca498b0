// Generates tests/data/previews/*.json ONCE: for every tool call of the recorded streams (OpenAI
// Chat and compatible, Mistral, Anthropic, OpenAI Responses), the preview npm `partial-json`
// (Allow.ALL) gives of each prefix of its arguments that ends at a fragment boundary. The files
// hold only the byte length of each prefix and its preview, never the streams. Gemini is left
// out: its wire carries argument objects (or partialArgs paths), not argument text.
//
//   cd tests/previews && npm ci && TOOLSTREAM_FIXTURES_DIR=/path/to/fixtures node generate.mjs
import { parse, Allow } from 'partial-json';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.TOOLSTREAM_FIXTURES_DIR;
if (!root) throw new Error('set TOOLSTREAM_FIXTURES_DIR');
const out = path.join(here, '..', 'data', 'previews');
fs.mkdirSync(out, { recursive: true });

const chat = new Set(['openai_chat', 'deepseek', 'groq', 'xai', 'alibaba', 'mistral']);

function* dataLines(text) {
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data || data === '[DONE]') continue;
    try { yield JSON.parse(data); } catch { /* not JSON: skipped, as the library reports it */ }
  }
}

// The argument fragments of each call, by the id toolstream gives its segment.
function fragments(dir, text) {
  const calls = new Map();
  const add = (id, piece) => { if (!calls.has(id)) calls.set(id, []); if (piece) calls.get(id).push(piece); };
  const byIndex = new Map();
  let message = null;   // Anthropic: the open message; another one starting in it is a splice
  for (const ev of dataLines(text)) {
    if (dir === 'anthropic' && ev.type === 'message_start') {
      if (message !== null && ev.message.id !== message) break;   // the SDKs stop reading there
      message = ev.message.id;
    }
    if (dir === 'anthropic' && ev.type === 'message_stop') message = null;
    if (chat.has(dir)) {
      for (const choice of ev.choices ?? []) {
        if (choice.index !== 0) continue;
        for (const tc of choice.delta?.tool_calls ?? []) {
          if (tc.id && !byIndex.has(tc.index)) byIndex.set(tc.index, tc.id);
          const id = byIndex.get(tc.index);
          if (id) add(id, typeof tc.function?.arguments === 'string' ? tc.function.arguments : '');
        }
      }
    } else if (dir === 'anthropic') {
      if (ev.type === 'content_block_start' && ev.content_block?.type === 'tool_use') byIndex.set(ev.index, ev.content_block.id);
      if (ev.type === 'content_block_delta' && ev.delta?.type === 'input_json_delta' && byIndex.has(ev.index))
        add(byIndex.get(ev.index), ev.delta.partial_json);
    } else if (dir === 'openai_responses') {
      if (ev.type === 'response.output_item.added' && ev.item?.type === 'function_call') byIndex.set(ev.item.id, ev.item.call_id);
      if (ev.type === 'response.function_call_arguments.delta' && byIndex.has(ev.item_id))
        add(byIndex.get(ev.item_id), ev.delta);
    }
  }
  return calls;
}

let files = 0;
for (const dir of fs.readdirSync(root).sort()) {
  if (!chat.has(dir) && dir !== 'anthropic' && dir !== 'openai_responses') continue;
  for (const name of fs.readdirSync(path.join(root, dir)).sort()) {
    if (!name.endsWith('.sse')) continue;
    const calls = fragments(dir, fs.readFileSync(path.join(root, dir, name), 'utf8'));
    const previews = {};
    for (const [id, pieces] of calls) {
      if (pieces.length === 0) continue;
      let text = '';
      previews[id] = pieces.map((piece) => {
        text += piece;
        // [bytes of the prefix, its preview] or [bytes] when partial-json throws.
        try { return [Buffer.byteLength(text), parse(text, Allow.ALL)]; } catch { return [Buffer.byteLength(text)]; }
      });
    }
    if (Object.keys(previews).length === 0) continue;
    const stem = name.slice(0, -4);
    fs.writeFileSync(path.join(out, `${dir}__${stem}.json`),
      JSON.stringify({ fixture: `${dir}/${stem}`, oracle: 'partial-json 0.1.7 parse(prefix, Allow.ALL)', calls: previews }, null, 1) + '\n');
    ++files;
  }
}
console.log(`wrote ${files} files to ${out}`);
