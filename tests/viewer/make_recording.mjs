// Writes the viewer test's recordings: an OpenAI Chat Completions SSE stream with reasoning,
// text and three parallel tool calls (get_weather, a write_file of `bytes` bytes, and a search
// with malformed arguments), their argument fragments interleaved. Deterministic. With `cut`, the
// stream stops after that many argument fragments (every call incomplete), then (with `error`)
// has an error event; no finish, no usage, no [DONE].
//
//   node make_recording.mjs OUT.sse [BYTES]      (tests/data/viewer/parallel_write.sse: 262144)
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

// A small seeded PRNG (mulberry32): the same recording on every machine.
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A Python-looking body of at least `bytes` UTF-8 bytes, with quotes, backslashes, tabs and
// characters of 2, 3 and 4 bytes.
export function makeBody(bytes, seed = 24) {
  const rnd = prng(seed);
  const words = ["ledger", "stock", "count", "café", "naïve", "→", "total", "\"quoted\"", "path\\to", "😀", "item", "Zürich"];
  const lines = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const indent = "    ".repeat(Math.floor(rnd() * 3));
    const k = 1 + Math.floor(rnd() * 8);
    const picked = Array.from({ length: k }, () => words[Math.floor(rnd() * words.length)]).join(" ");
    const line = n % 17 === 0 ? `\tdef f${n}(x):` : n % 5 === 0 ? `${indent}# ${picked}` : `${indent}v${n} = "${picked.replaceAll("\\", "\\\\").replaceAll("\"", "'")}"`;
    lines.push(line + "\n");
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join("");
}

// Splits `s` into pieces of about `n` UTF-16 units, never inside a surrogate pair.
function pieces(s, n) {
  const out = [];
  for (let at = 0; at < s.length;) {
    let end = Math.min(s.length, at + n);
    const c = s.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff && end < s.length) end++;
    out.push(s.slice(at, end));
    at = end;
  }
  return out;
}

export function makeRecording({ bytes = 262144, piece = 600, cut = 0, error = "" } = {}) {
  const body = makeBody(bytes);
  const reasoning = "The user wants the weather and a ledger module. I will call get_weather, write the file, and search the docs, all at once.";
  const text = "Checking the weather in Zürich and writing src/ledger.py now — “three calls in parallel”.";
  const weatherArgs = { city: "Zürich", days: 3, units: "metric" };
  const writeArgs = { path: "src/ledger.py", content: body };
  const searchText = '{"query": "viewer feed", "limit": 5,}';   // malformed: a trailing comma
  const chunk = (delta, finish = null) => ({ id: "chatcmpl-viewer", object: "chat.completion.chunk", created: 1767225600,
    model: "demo-model", choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = [chunk({ role: "assistant", content: "" })];
  for (const p of pieces(reasoning, 12)) events.push(chunk({ reasoning_content: p }));
  for (const p of pieces(text, 9)) events.push(chunk({ content: p }));
  const call = (index, args, id, name) => ({ index, ...(id ? { id, type: "function" } : {}),
    function: { ...(name ? { name } : {}), arguments: args } });
  const weather = pieces(JSON.stringify(weatherArgs), 7);
  const write = pieces(JSON.stringify(writeArgs), piece);
  const search = pieces(searchText, 6);
  const queues = [[0, weather, "call_weather", "get_weather"], [1, write, "call_write", "write_file"], [2, search, "call_search", "search"]];
  const sent = {};   // each call's argument text as sent
  let fragments = 0;
  fragments: for (let step = 0; queues.some(q => q[1].length > step); step++)
    for (const [index, list, id, name] of queues)
      if (step < list.length) {
        if (cut && fragments++ === cut) break fragments;
        events.push(chunk({ tool_calls: [call(index, list[step], step === 0 ? id : undefined, step === 0 ? name : undefined)] }));
        sent[id] = (sent[id] ?? "") + list[step];
      }
  if (cut) {
    const tail = error ? "data: " + JSON.stringify({ error: { message: error, type: "server_error" } }) + "\n\n" : "";
    return {
      sse: events.map(e => "data: " + JSON.stringify(e) + "\n\n").join("") + tail, body, text, reasoning,
      calls: queues.map(([, , id, name]) => ({ id, name, status: "incomplete", raw: sent[id] })),
    };
  }
  events.push(chunk({}, "tool_calls"));
  events.push({ id: "chatcmpl-viewer", object: "chat.completion.chunk", created: 1767225600, model: "demo-model", choices: [],
    usage: { prompt_tokens: 321, completion_tokens: events.length, total_tokens: 321 + events.length } });
  const sse = events.map(e => "data: " + JSON.stringify(e) + "\n\n").join("") + "data: [DONE]\n\n";
  return {
    sse, body, text, reasoning,
    usage: { input_tokens: 321, output_tokens: events.length - 1 },
    calls: [
      { id: "call_weather", name: "get_weather", status: "complete", arguments: weatherArgs },
      { id: "call_write", name: "write_file", status: "complete", arguments: { path: "src/ledger.py" } },
      { id: "call_search", name: "search", status: "invalid_arguments", raw: searchText },
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [out, bytes] = process.argv.slice(2);
  if (!out) {
    console.error("usage: node make_recording.mjs OUT.sse [BYTES]");
    process.exit(2);
  }
  writeFileSync(out, makeRecording({ bytes: bytes ? Number(bytes) : 262144 }).sse);
}
