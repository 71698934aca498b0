// The viewer page's script (viewer.html): embed.cmake writes it into the page, so that the page
// served is still one file.
"use strict";
// Everything shown comes from the viewer feed (docs/viewer.md): the page never reads provider
// JSON, tool markup or argument text. Deltas are queued and written once per animation frame,
// as appended text nodes: a body is never re-rendered.
(() => {
  const main = document.getElementById("streams");
  const conn = document.getElementById("conn");
  const notices = document.getElementById("notices");
  const FRAME_BUDGET = 64 * 1024;    // bytes written per frame, so that a burst stays smooth
  const SLICE_MS = 6;                // feed lines read between two frames, at most
  const ROW_MAX_LINES = 400;         // a pane row holds at most this many lines
  let streams = new Map();           // stream key -> {el, segs, footer}
  let segments = new Map();          // stream key + id -> segment state
  let dirty = new Set();             // segments with queued output
  let frameRequested = false;
  let skippedTotal = 0;
  let latest = null;                 // the stream begun last: the badge says whether it ended
  let connected = false;
  let ending = new Set();            // streams whose `done` waits for their queued output

  // Frame timing, for the browser test and anyone curious: rAF timestamps, long tasks, and the
  // time spent reading lines and writing batches.
  const frames = window.__viewerFrames = [];
  const stats = window.__viewerStats = { lines: 0, lineMs: 0, flushMs: 0, maxFlushMs: 0, firstLineAt: 0, lastFlushAt: 0 };
  const longTasks = window.__viewerLongTasks = [];
  const tick = t => { frames.push(t); if (frames.length > 20000) frames.splice(0, 10000); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver(list => { for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: "longtask", buffered: true });
  } catch (e) { /* no long task API: frames only */ }

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  function stream(key) {
    let s = streams.get(key);
    if (s) return s;
    document.getElementById("empty")?.remove();
    const root = el("section", "stream");
    root.dataset.stream = key;
    const response = el("div", "response", key ? "stream " + key : "");
    const segs = el("div", "segments");
    const footer = el("div", "footer");
    root.append(response, segs, footer);
    main.append(root);
    s = { root, response, segs, footer };
    streams.set(key, s);
    latest = s; badge();
    return s;
  }

  function reset() {
    streams = new Map(); segments = new Map(); dirty = new Set(); ending = new Set(); latest = null;
    main.replaceChildren(el("div", "empty", "Waiting for a stream…"));
    main.firstChild.id = "empty";
    badge();
  }

  // The badge: `live` while connected and the latest stream goes on; `ended` once its feed said
  // `done`; `failed: why` when it ended with an error; `reconnecting…` without a connection.
  function badge() {
    if (!connected) { conn.textContent = "reconnecting…"; conn.className = "lost"; conn.title = ""; return; }
    const d = latest && latest.ended, failed = d && d.error !== undefined;
    conn.className = d ? (failed ? "failed" : "ended") : "live";
    conn.textContent = d ? (failed ? "failed: " + d.error : "ended") : "live";
    conn.title = failed ? d.error : "";
  }

  function showEnd(s) {
    s.ended = s.done;
    const failed = s.done.error !== undefined;
    s.root.dataset.state = failed ? "failed" : "ended";
    const d = el("span", "done", failed ? "failed" : "ended");
    d.dataset.state = s.root.dataset.state;
    if (failed) d.title = s.done.error;
    s.footer.append(d);
    if (s === latest) badge();
  }

  function statusText(status) { return status === "invalid_arguments" ? "invalid" : status; }

  function start(m, key) {
    const s = stream(key);
    const seg = { kind: m.kind, queue: [], head: 0, bytes: 0, raw: "", rawDropped: 0 };
    if (m.kind === "text") {
      seg.el = seg.body = el("div", "text");
    } else if (m.kind === "reasoning") {
      seg.el = el("details", "reasoning");
      seg.el.open = true;
      seg.el.append(el("summary", "", "Reasoning"));
      seg.body = el("div", "body");
      seg.el.append(seg.body);
    } else {
      const card = seg.el = el("div", "card");
      card.dataset.id = m.id;
      card.dataset.kind = m.kind;
      card.dataset.status = "streaming";
      const head = el("div", "card-head");
      seg.name = el("span", "name", m.name || m.kind);
      seg.status = el("span", "status", "streaming");
      head.append(seg.name, el("code", "id", m.id));
      const path = m.metadata && typeof m.metadata.path === "string" ? m.metadata.path : "";
      seg.path = el("span", "path", path);
      seg.count = el("span", "bytes", "");
      head.append(seg.path, seg.count, seg.status);
      seg.tree = el("div", "tree");
      seg.error = el("div", "error");
      card.append(head, seg.tree, seg.error);
      if (m.kind !== "tool_call") {
        seg.pane = el("div", "pane");
        seg.pane.dataset.follow = "1";
        seg.pane.addEventListener("scroll", () => {
          const p = seg.pane;
          p.dataset.follow = p.scrollTop + p.clientHeight >= p.scrollHeight - 4 ? "1" : "";
        });
        seg.line = 1;       // the number of the line the tail is on
        seg.tail = newRow(seg, "");
        seg.pane.append(seg.tail.row);
        card.append(seg.pane);
      }
    }
    s.segs.append(seg.el);
    segments.set(key + "\u001f" + m.id, seg);
  }

  // A pane row: line numbers beside a block of whole lines (or the unfinished last line).
  function newRow(seg, text) {
    const row = el("div", "row");
    const ln = el("pre", "ln");
    const src = el("pre", "src");
    row.append(ln, src);
    return { row, ln, src, text };
  }

  function appendLines(seg, src, text) {
    if (seg.kind !== "patch_file") { src.append(document.createTextNode(text)); return; }
    for (const line of text.match(/[^\n]*\n|[^\n]+$/g) || []) {
      const c = line.startsWith("@@") ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
      src.append(c ? el("span", c, line) : document.createTextNode(line));
    }
  }

  // Writes queued text into a pane: whole lines become new rows before the tail row; the
  // unfinished last line stays in the tail.
  function flushPane(seg, text) {
    let all = seg.tail.text + text;
    let cut = all.lastIndexOf("\n");
    while (cut >= 0) {
      // Rows of at most ROW_MAX_LINES lines keep each layout small.
      let end = 0, lines = 0;
      for (let i = all.indexOf("\n"); i >= 0 && i <= cut; i = all.indexOf("\n", i + 1)) {
        end = i + 1;
        if (++lines === ROW_MAX_LINES) break;
      }
      const r = newRow(seg, "");
      const nums = [];
      for (let n = 0; n < lines; n++) nums.push(seg.line + n);
      r.ln.textContent = nums.join("\n");
      appendLines(seg, r.src, all.slice(0, end));
      r.row.style.containIntrinsicSize = "auto " + (lines * 17) + "px";
      seg.pane.insertBefore(r.row, seg.tail.row);
      seg.line += lines;
      all = all.slice(end);
      cut = all.lastIndexOf("\n");
    }
    seg.tail.text = all;
    seg.tail.src.replaceChildren();
    if (all) appendLines(seg, seg.tail.src, all);
    seg.tail.ln.textContent = all ? String(seg.line) : "";
  }

  function flush() {
    frameRequested = false;
    let budget = FRAME_BUDGET;
    for (const seg of dirty) {
      if (budget <= 0) break;
      const t0 = performance.now();
      let text = "";
      while (seg.head < seg.queue.length && budget > 0) {
        const piece = seg.queue[seg.head];
        if (piece.length > budget && text) break;
        seg.head++;
        text += piece;
        budget -= piece.length;
      }
      if (seg.head === seg.queue.length) { seg.queue = []; seg.head = 0; }
      if (text) {
        if (seg.pane) {
          flushPane(seg, text);
          seg.count.textContent = seg.line + " lines";
          if (seg.pane.dataset.follow) seg.pane.scrollTop = seg.pane.scrollHeight;
        } else {
          seg.body.append(document.createTextNode(text));
        }
      }
      if (seg.preview !== undefined) { renderTree(seg.tree, seg.preview); seg.preview = undefined; }
      if (!seg.queue.length) { dirty.delete(seg); if (seg.ended && seg.tree) finishCard(seg); }
      const spent = performance.now() - t0;
      stats.flushMs += spent; stats.maxFlushMs = Math.max(stats.maxFlushMs, spent); stats.lastFlushAt = performance.now();
    }
    if (dirty.size) request();
    else { for (const s of ending) showEnd(s); ending.clear(); }   // once what came before is shown
  }

  function request() {
    if (!frameRequested) { frameRequested = true; requestAnimationFrame(flush); }
  }

  function renderTree(box, value) {
    const node = v => {
      if (v === null) return el("span", "b", "null");
      if (Array.isArray(v) || typeof v === "object") {
        const ul = el("ul");
        const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
        for (const [k, x] of entries) {
          const li = el("li");
          li.append(el("span", "k", Array.isArray(v) ? "[" + k + "]" : k), ": ", node(x));
          ul.append(li);
        }
        if (!entries.length) return el("span", "b", Array.isArray(v) ? "[]" : "{}");
        return ul;
      }
      if (typeof v === "string") {
        const shown = v.length > 4000 ? v.slice(0, 4000) + "… (" + (v.length - 4000) + " more)" : v;
        return el("span", "s", JSON.stringify(shown));
      }
      return el("span", typeof v === "number" ? "n" : "b", String(v));
    };
    box.replaceChildren(node(value));
  }

  function finishCard(seg) {
    const m = seg.ended;
    seg.el.dataset.status = m.status;
    seg.status.textContent = statusText(m.status);
    if (m.name) seg.name.textContent = m.name;
    if (m.error) seg.error.textContent = m.error;
    if (seg.count) seg.count.textContent = m.kind === "tool_call" ? "" : m.bytes + " bytes";
    if (m.arguments !== undefined) {
      seg.el.dataset.arguments = JSON.stringify(m.arguments);
      if (seg.path && typeof m.arguments.path === "string") seg.path.textContent = m.arguments.path;
      renderTree(seg.tree, m.arguments);
    }
    if (m.status !== "complete") showPartial(seg, m);
    seg.raw = "";
  }

  // A call that ended broken (cut, or arguments that do not parse) keeps what arrived, marked: a
  // file's body stays in its pane, a call's argument text is shown as it came.
  function showPartial(seg, m) {
    if (seg.pane) {   // the mark goes where the body stops
      seg.pane.append(el("div", "cut", "✂ " + statusText(m.status) + (m.error ? ": " + m.error : "")));
      if (seg.pane.dataset.follow) seg.pane.scrollTop = seg.pane.scrollHeight;
      return;
    }
    const box = el("div", "partial");
    box.dataset.status = m.status;
    const dropped = seg.rawDropped ? ", and " + seg.rawDropped + " bytes the server did not keep" : "";
    box.append(el("div", "partial-head", "arguments received (" + statusText(m.status) + "): " + seg.raw.length + " characters" + dropped),
               el("pre", "raw", seg.raw));
    seg.tree.after(box);
  }

  function onLine(m) {
    const key = m.stream || "";
    const seg = m.id !== undefined ? segments.get(key + "\u001f" + m.id) : undefined;
    switch (m.type) {
      case "reset": reset(); break;
      case "response": {
        const s = stream(key);
        s.response.textContent = (key ? "stream " + key + " · " : "") + (m.model || "") + (m.id ? " · " + m.id : "");
        break;
      }
      case "start": start(m, key); break;
      case "delta":
        if (!seg || !(seg.pane || seg.body)) break;
        seg.queue.push(m.text); seg.bytes += m.text.length;
        dirty.add(seg); request();
        break;
      case "args":
        if (!seg) break;
        if (m.json) seg.raw += m.json;   // shown if the call ends broken
        if (m.preview !== undefined) { seg.preview = m.preview; dirty.add(seg); request(); }
        break;
      case "end":
        if (!seg) break;
        seg.ended = m;
        if (!seg.tree) break;   // text and reasoning: nothing to mark
        if (seg.head < seg.queue.length || seg.preview !== undefined) { dirty.add(seg); request(); } else finishCard(seg);
        break;
      case "skipped":
        if (seg && seg.pane) {
          flushPane(seg, seg.queue.slice(seg.head).join(""));   // the marker goes after what is queued
          seg.queue = []; seg.head = 0;
          seg.pane.insertBefore(el("div", "skip", "… " + m.bytes + " bytes not kept by the server …"), seg.tail.row);
        } else if (seg) {
          seg.rawDropped += m.bytes;
        } else if (m.events) {
          skippedTotal += m.events;
          notices.textContent = "skipped " + skippedTotal + " events (this page fell behind; resynchronised)";
        }
        break;
      case "finish": {
        const f = el("span", "finish");
        f.append("finish: ", el("b", "", m.reason || m.kind), m.reason && m.reason !== m.kind ? " (" + m.kind + ")" : "");
        f.dataset.kind = m.kind;
        stream(key).footer.append(f);
        break;
      }
      case "usage": {
        const u = el("span", "usage");
        u.append("usage: ", el("b", "", String(m.input_tokens)), " in, ", el("b", "", String(m.output_tokens)), " out");
        stream(key).footer.append(u);
        break;
      }
      case "error": stream(key).footer.append(el("span", "err", "error: " + m.message)); break;
      case "done": {   // the stream is over (with `error` when it failed)
        const s = streams.get(key);
        if (!s || s.done) break;
        s.done = m; ending.add(s); request();
        break;
      }
    }
  }

  // The feed as NDJSON over fetch(): a reconnection gets `reset` and the current state first.
  const key = new URLSearchParams(location.search).get("key");
  const feedUrl = "feed" + (key ? "?key=" + encodeURIComponent(key) : "");
  const handle = line => {
    const t0 = performance.now();
    if (!stats.firstLineAt) stats.firstLineAt = t0;
    onLine(JSON.parse(line));
    stats.lines++; stats.lineMs += performance.now() - t0;
  };
  (async () => {
    for (;;) {
      try {
        const res = await fetch(feedUrl, { cache: "no-store" });
        if (!res.ok) { conn.textContent = res.status === 401 ? "needs ?key=" : "HTTP " + res.status; return; }
        connected = true; badge();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let rest = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const lines = (rest + value).split("\n");
          rest = lines.pop();
          // A burst (a page that connects late, a model at full speed) is read a slice at a
          // time, with a frame between slices: the page keeps painting.
          let slice = performance.now();
          for (const line of lines) {
            if (line) handle(line);
            if (performance.now() - slice > SLICE_MS) {
              await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
              slice = performance.now();
            }
          }
        }
      } catch (e) { /* the server went away: try again */ }
      connected = false; badge();
      await new Promise(r => setTimeout(r, 1000));
    }
  })();
})();
