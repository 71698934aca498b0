#!/usr/bin/env python3
"""Peak RSS of toolstream-gateway while concurrent stream:true chats each relay one native tool
call with a large body (BENCHMARKS.md, "Gateway: large tool calls"). All on loopback: a model
server in this process streams `write_file` arguments in 4,000-byte OpenAI chunks; each client
reads its whole SSE answer and checks it ends with [DONE] and carries the body's size.

  benchmarks/gateway_large_calls.py GATEWAY [--clients 8] [--mib 50]
"""
import argparse
import http.client
import http.server
import json
import re
import subprocess
import sys
import threading
import time

PIECE = "a" * 4000


def chunk(delta, finish=None):
    body = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + json.dumps(body, separators=(",", ":")).encode() + b"\n\n"


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    pieces = 0

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        call = {"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "write_file", "arguments": '{"path":"a.txt","content":"'}}
        self.wfile.write(chunk({"role": "assistant", "tool_calls": [call]}))
        middle = chunk({"tool_calls": [{"index": 0, "function": {"arguments": PIECE}}]})
        batch = middle * 64
        for _ in range(self.pieces // 64):
            self.wfile.write(batch)
        self.wfile.write(chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"}'}}]}))
        self.wfile.write(chunk({}, "tool_calls") + b"data: [DONE]\n\n")


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def client(port, results, index):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "go"}]})
    conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    reply = conn.getresponse()
    received, tail = 0, b""
    while True:
        data = reply.read(1 << 16)
        if not data:
            break
        received += len(data)
        tail = (tail + data)[-64:]
    results[index] = (reply.status, received, tail.endswith(b"data: [DONE]\n\n"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gateway")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--mib", type=int, default=50)
    args = parser.parse_args()
    Upstream.pieces = (args.mib << 20) // len(PIECE) // 64 * 64
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    limit = str((args.mib + 16) << 20)
    gateway = subprocess.Popen([args.gateway, "--upstream", f"http://127.0.0.1:{upstream.server_port}/v1/chat/completions",
                                "--provider", "openai_chat", "--listen", "127.0.0.1:0",
                                "--max-response-bytes", limit, "--max-argument-bytes", limit],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r":(\d+)", gateway.stdout.readline()).group(1))
        baseline = peak_rss_kib(gateway.pid)
        results = [None] * args.clients
        started = time.monotonic()
        threads = [threading.Thread(target=client, args=(port, results, i)) for i in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        peak = peak_rss_kib(gateway.pid)
    finally:
        gateway.terminate()
        gateway.wait(30)
        upstream.shutdown()
    body_mib = Upstream.pieces * len(PIECE) / (1 << 20)
    ok = all(r and r[0] == 200 and r[2] and r[1] > Upstream.pieces * len(PIECE) for r in results)
    print(f"{args.clients} clients x {body_mib:.1f} MiB of arguments: {elapsed:.1f} s, "
          f"gateway peak RSS {peak / 1024:.0f} MiB (at start {baseline / 1024:.1f} MiB), "
          f"{'all complete' if ok else 'FAILED: ' + repr(results)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
