#!/usr/bin/env python3
"""Regenerates the demo's bundled stream from demo_file.py (deterministic).

write_file_demo.sse: an OpenAI Chat Completions SSE body in which the model writes demo_file.py
as inventory.py through one write_file tool call, in 2-9 character argument deltas.
"""
import json
import random
from pathlib import Path

here = Path(__file__).parent
content = (here / "demo_file.py").read_text()
args = json.dumps({"path": "inventory.py", "content": content}, ensure_ascii=False)
rng = random.Random(7)
pieces, at = [], 0
while at < len(args):
    n = rng.randint(2, 9)
    pieces.append(args[at:at + n])
    at += n

def chunk(delta, finish=None):
    return {"id": "chatcmpl-demo", "object": "chat.completion.chunk", "created": 1767225600,
            "model": "demo-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

with open(here / "write_file_demo.sse", "w") as out:
    def send(obj):
        out.write("data: " + json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n\n")
    send(chunk({"role": "assistant", "content": "I'll create the file now."}))
    for i, piece in enumerate(pieces):
        call = {"index": 0, "function": {"arguments": piece}}
        if i == 0:
            call.update({"id": "call_demo_1", "type": "function"})
            call["function"]["name"] = "write_file"
        send(chunk({"tool_calls": [call]}))
    send(chunk({}, "tool_calls"))
    send({"id": "chatcmpl-demo", "object": "chat.completion.chunk", "created": 1767225600,
          "model": "demo-model", "choices": [],
          "usage": {"prompt_tokens": 52, "completion_tokens": len(pieces), "total_tokens": 52 + len(pieces)}})
    out.write("data: [DONE]\n\n")
