// The viewer page in a real headless Chromium (puppeteer-core, pinned in package-lock.json):
//   1. a paced replay of tests/data/viewer/parallel_write.sse (reasoning, text, three parallel
//      calls, a 256 KiB write_file): text, reasoning, each card's status and final arguments,
//      the file pane byte for byte, the pane growing before the call completed, the badge `live`
//      while it streams and `ended` after, no console error;
//   2. the same calls cut mid-way (then an error event, or not): each card incomplete, showing
//      the argument text that arrived or the body so far, marked; the badge `ended` or
//      `failed: …`; the same on a page that connects afterwards;
//   3. a 1 MiB write_file at full speed: the page's frame times (requestAnimationFrame and long
//      tasks, Chromium's performance API), printed as `frame time: {…}`.
//
//   node browser_test.mjs --replay PATH [--chromium PATH] [--screenshot OUT.png] [--skip-frames]
// Prints "browser test skipped: …" and exits 0 when chromium is absent.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";
import { makeRecording } from "./make_recording.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = name => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const replay = option("--replay");
const chromium = option("--chromium") || process.env.CHROMIUM || "/usr/bin/chromium";
const screenshot = option("--screenshot");
if (!replay) { console.error("usage: node browser_test.mjs --replay PATH [--chromium PATH] [--screenshot OUT.png]"); process.exit(2); }
if (!existsSync(chromium)) {
  console.log(`browser test skipped: no chromium at ${chromium} (apt-get install chromium, or set CHROMIUM)`);
  process.exit(0);
}

const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); console.log(`${ok ? "ok  " : "FAIL"} ${what}`); };
const sleep = ms => new Promise(r => setTimeout(r, ms));
const deadline = Date.now() + 110_000;   // the whole test stays under two minutes
const children = [];
const work = mkdtempSync(join(tmpdir(), "toolstream-viewer-"));

// Starts `toolstream-replay --serve` and resolves with the page's URL.
function serve(file, pace) {
  const child = spawn(replay, ["--serve", "--listen", "127.0.0.1:0", "--pace", String(pace), "--provider", "openai_chat", file],
                      { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", d => {
      out += d;
      const m = /viewer: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", code => reject(new Error(`toolstream-replay exited (${code}) before listening: ${out}`)));
  });
}

async function waitFor(page, fn, what, ms = 60_000) {
  const end = Math.min(Date.now() + ms, deadline);
  while (Date.now() < end) {
    if (await page.evaluate(fn)) return true;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

// What the page shows, read from the DOM only.
const readPage = () => {
  const cards = {};
  for (const c of document.querySelectorAll(".card")) {
    cards[c.dataset.id] = {
      name: c.querySelector(".name").textContent,
      status: c.dataset.status,
      shown: c.querySelector(".status").textContent,
      arguments: c.dataset.arguments === undefined ? null : JSON.parse(c.dataset.arguments),
      pane: c.querySelector(".pane") ? Array.from(c.querySelectorAll(".pane .src"), e => e.textContent).join("") : null,
      error: c.querySelector(".error").textContent,
      partial: c.querySelector(".partial .raw")?.textContent ?? null,   // a broken call's text
      partialStatus: c.querySelector(".partial")?.dataset.status ?? null,
      cut: c.querySelector(".pane .cut")?.textContent ?? null,          // a broken file's mark
    };
  }
  const conn = document.getElementById("conn");
  return {
    badge: `${conn.className}|${conn.textContent}`,
    state: Array.from(document.querySelectorAll(".stream"), e => `${e.dataset.state}|${e.querySelector(".footer .done")?.textContent}`).join(),
    text: Array.from(document.querySelectorAll(".text"), e => e.textContent).join(""),
    reasoning: Array.from(document.querySelectorAll(".reasoning .body"), e => e.textContent).join(""),
    finish: document.querySelector(".footer .finish")?.dataset.kind ?? null,
    usage: document.querySelector(".footer .usage")?.textContent ?? null,
    cards,
  };
};

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir: join(work, "profile"),
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--window-size=1200,900"],
});
try {
  // 1. The paced replay.
  if (!args.includes("--frames-only")) {
  const expected = makeRecording();
  const file = join(here, "..", "data", "viewer", "parallel_write.sse");
  check(readFileSync(file, "utf8") === expected.sse, "the bundled recording is make_recording.mjs's output");
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const consoleErrors = [];
  page.on("console", m => { if (m.type() === "error") consoleErrors.push(m.text()); });
  page.on("pageerror", e => consoleErrors.push(String(e && e.stack || e)));
  page.on("requestfailed", r => consoleErrors.push(`request failed: ${r.url()}`));
  const url = await serve(file, 12);
  await page.goto(url);
  const samples = [];
  const body = expected.body;
  while (Date.now() < deadline) {
    const s = await page.evaluate(() => {
      const c = document.querySelector('.card[data-id="call_write"]');
      return c && { status: c.dataset.status, chars: Array.from(c.querySelectorAll(".pane .src"), e => e.textContent.length).reduce((a, b) => a + b, 0),
                    badge: document.getElementById("conn").className };
    });
    if (s) samples.push(s);
    if (s && s.status !== "streaming") break;
    await sleep(100);
  }
  await waitFor(page, () => document.querySelector(".footer .usage") && !document.querySelector('.card[data-status="streaming"]'), "every card to end");
  await waitFor(page, () => document.querySelector(".footer .done"), "the stream's end");
  await sleep(300);   // let the last frame's batch land
  const shown = await page.evaluate(readPage);
  check(shown.text === expected.text, "the text, as the deltas carried it");
  check(shown.reasoning === expected.reasoning, "the reasoning, apart from the text");
  for (const call of expected.calls) {
    const card = shown.cards[call.id];
    check(card !== undefined, `a card for ${call.id}`);
    if (!card) continue;
    check(card.name === call.name, `${call.id}: name ${card.name}`);
    check(card.status === call.status, `${call.id}: status ${card.status} (shown "${card.shown}")`);
    if (call.arguments)
      check(JSON.stringify(card.arguments) === JSON.stringify(call.arguments), `${call.id}: final arguments ${JSON.stringify(card.arguments)}`);
    check(card.partial === (call.raw ?? null), `${call.id}: argument text shown ${call.raw ? "as it came" : "only when broken"} (${card.partial})`);
    if (call.raw) check(card.partialStatus === call.status && card.error !== "", `${call.id}: marked ${card.partialStatus}, with its error (${card.error})`);
  }
  const pane = shown.cards.call_write?.pane ?? "";
  check(Buffer.from(pane).equals(Buffer.from(body)), `the file pane is the body byte for byte (${Buffer.byteLength(pane)} of ${Buffer.byteLength(body)} bytes)`);
  const growing = samples.filter(s => s.status === "streaming" && s.chars > 0 && s.chars < body.length);
  check(new Set(growing.map(s => s.chars)).size >= 3, `the pane grew while the call streamed (${growing.length} samples, ${new Set(growing.map(s => s.chars)).size} sizes)`);
  check(shown.finish === "tool_calls", `finish reason shown (${shown.finish})`);
  check(samples.some(s => s.status === "streaming" && s.badge === "live"), "the badge is live while the stream goes on");
  check(shown.badge === "ended|ended" && shown.state === "ended|ended", `after the stream's end, the badge and the stream say ended (${shown.badge}; ${shown.state})`);
  check(shown.usage === `usage: ${expected.usage.input_tokens} in, ${expected.usage.output_tokens} out`, `usage shown (${shown.usage})`);

  // A page that reconnects gets the state again (reset + snapshot), identical.
  const again = await browser.newPage();
  again.on("console", m => { if (m.type() === "error") consoleErrors.push(m.text()); });
  again.on("pageerror", e => consoleErrors.push("again: " + String(e && e.stack || e)));
  await again.goto(url);
  await waitFor(again, () => document.querySelector(".footer .done") !== null, "the snapshot on a new page");
  await sleep(300);
  const resumed = await again.evaluate(readPage);
  check(JSON.stringify(resumed) === JSON.stringify(shown), "a new page shows the same state from the snapshot");
  await again.close();

  if (screenshot) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshot });
    console.log(`screenshot: ${screenshot}`);
  }
  check(consoleErrors.length === 0, `no console error${consoleErrors.length ? ": " + consoleErrors.join("; ") : ""}`);
  await page.close();
  }

  // 2. The calls cut mid-way, the stream ending there (or with an error event).
  for (const error of args.includes("--frames-only") ? [] : ["", "upstream overloaded"]) {
    const cut = makeRecording({ bytes: 4096, cut: 6, error });
    const cutFile = join(work, "cut.sse");
    writeFileSync(cutFile, cut.sse);
    const cutUrl = await serve(cutFile, 5);
    const pages = [];
    for (const late of [false, true]) {   // live, then from the snapshot
      const p = await browser.newPage();
      p.on("pageerror", e => failures.push(`cut page: ${e}`));
      await p.goto(cutUrl);
      await waitFor(p, () => document.querySelector(".footer .done") && !document.querySelector('.card[data-status="streaming"]'), "the cut stream's end");
      await sleep(300);
      pages.push(await p.evaluate(readPage));
      await p.close();
    }
    const [shown, resumed] = pages;
    const what = error ? "a stream cut by an error" : "a cut stream";
    const badge = error ? `failed|failed: ${error}` : "ended|ended";
    check(shown.badge === badge && shown.state === (error ? "failed|failed" : "ended|ended"), `${what}: the badge says ${shown.badge}; the stream ${shown.state}`);
    for (const call of cut.calls) {
      const card = shown.cards[call.id] ?? {};
      check(card.status === "incomplete" && card.error !== "", `${what}: ${call.id} incomplete, with its error (${card.status}: ${card.error})`);
      if (card.pane === null)
        check(card.partial === call.raw && card.partialStatus === "incomplete", `${what}: ${call.id} shows the argument text that arrived (${card.partial})`);
      else
        check(card.pane.length > 0 && cut.body.startsWith(card.pane) && card.cut?.startsWith("✂ incomplete"),
              `${what}: ${call.id} keeps the body so far (${card.pane.length} chars), marked (${card.cut})`);
    }
    check(JSON.stringify(resumed) === JSON.stringify(shown), `${what}: a page that connects afterwards shows the same`);
  }

  // 3. A 1 MiB body at full speed: frame times.
  if (!args.includes("--skip-frames")) {
    const big = makeRecording({ bytes: 1 << 20, piece: 256 });
    const bigFile = join(work, "one_mib.sse");
    writeFileSync(bigFile, big.sse);
    const fast = await browser.newPage();
    await fast.setViewport({ width: 1200, height: 900 });
    const bigUrl = await serve(bigFile, 0);
    await fast.goto(bigUrl);
    await waitFor(fast, () => { const c = document.querySelector('.card[data-id="call_write"]'); return c && c.dataset.status !== "streaming"; }, "the 1 MiB call to end", 90_000);
    const result = await fast.evaluate(() => {
      const c = document.querySelector('.card[data-id="call_write"]');
      return { pane: Array.from(c.querySelectorAll(".pane .src"), e => e.textContent).join(""), frames: window.__viewerFrames.slice(), longTasks: window.__viewerLongTasks.slice(), stats: window.__viewerStats };
    });
    check(result.pane === big.body, `the 1 MiB pane is the body (${result.pane.length} of ${big.body.length} chars)`);
    // Only the frames while the body streamed: from the first line to the last batch written.
    const { firstLineAt, lastFlushAt } = result.stats;
    const during = result.frames.filter(t => t >= firstLineAt && t <= lastFlushAt + 100);
    const f = during.slice(1).map((t, i) => t - during[i]).sort((a, b) => a - b);
    const tasks = result.longTasks.filter(t => t.start + t.duration >= firstLineAt && t.start <= lastFlushAt);
    const q = p => f.length ? Math.round(f[Math.min(f.length - 1, Math.floor(p * f.length))] * 10) / 10 : null;
    const r = x => Math.round(x * 10) / 10;
    const stats = { body_bytes: Buffer.byteLength(big.body), events: big.sse.split("\n\n").length - 1,
                    streaming_ms: r(lastFlushAt - firstLineAt), frames: f.length, p50_ms: q(0.5), p95_ms: q(0.95),
                    max_ms: f.length ? r(f[f.length - 1]) : null, long_tasks: tasks.length,
                    longest_task_ms: tasks.length ? r(Math.max(...tasks.map(t => t.duration))) : 0,
                    js_lines_ms: r(result.stats.lineMs), js_batches_ms: r(result.stats.flushMs), longest_batch_ms: r(result.stats.maxFlushMs) };
    console.log(`frame time: ${JSON.stringify(stats)}`);
    await fast.close();
  }
} catch (e) {
  failures.push(String(e && e.stack || e));
  console.error(e);
} finally {
  await browser.close();
  for (const c of children) c.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`${failures.length} failure(s):\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("viewer browser test passed");
