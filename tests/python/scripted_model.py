"""A scripted OpenAI-compatible model for the example agents' tests: it reads the screen and turns
Wi-Fi on the way a person would (Settings → Network & internet → Internet → the Wi-Fi switch), then
calls task_finish. Stands in for a paid API only; the agent, its framework, the MCP SDK and droidmcp
are real.

Two ways of being asked, as agents ask: a prompt holding the screen, answered with one JSON tool
choice in the text (examples/mcp_agent.py); or a request with `tools` (function calling: the OpenAI
Agents SDK, LangGraph, the TypeScript example), answered with `tool_calls`: `screen` first and after
every action, the next step once a screen came back, then a closing text after `task_finish`.

Usage: scripted_model.py PORT   (serves http://127.0.0.1:PORT/v1/chat/completions until killed)
"""

import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def elements(screen):
    """The element lines of the screen tool's reply (its `changes:` part left out)."""
    listed = screen.split("\nelements (", 1)[-1]
    return [line for line in listed.splitlines() if re.match(r"^\d+ ", line)]


def element(lines, pattern):
    for line in lines:
        if re.search(pattern, line):
            return int(line.split(" ", 1)[0]), line
    return None, None


def decide(prompt):
    lines = elements(prompt.split("Screen:", 1)[-1])
    # The Wi-Fi row's switch is its own element, listed after the row's label.
    label, _ = element(lines, r" btn .*: Wi-Fi$")
    if label is not None:
        after = [l for l in lines if int(l.split(" ", 1)[0]) > label]
        switch, line = element(after, r" switch ")
        if switch is not None:
            if re.search(r"\bchecked\b", line) and "unchecked" not in line:
                return {"tool": "task_finish", "arguments": {}}
            return {"tool": "tap", "arguments": {"element": switch}}
    for label in (r" btn .*: Internet\b", r" btn .*: Network & internet\b"):
        found, _ = element(lines, label)
        if found is not None:
            return {"tool": "tap", "arguments": {"element": found}}
    if any("com.android.settings" in l for l in prompt.splitlines()):
        return {"tool": "scroll", "arguments": {"direction": "down"}}
    return {"tool": "open_app", "arguments": {"app": "Settings"}}


def flatten(content):
    """The text of a message's content: a string, a list of parts, or a tool result serialized as
    JSON by a framework (its `text` fields)."""
    if isinstance(content, list):
        return "\n".join(flatten(p.get("text", p) if isinstance(p, dict) else p) for p in content)
    if isinstance(content, dict):
        return "\n".join(flatten(v) for k, v in content.items() if k in ("text", "content"))
    if isinstance(content, str):
        try:
            parsed = json.loads(content)
        except ValueError:
            return content
        return flatten(parsed) if isinstance(parsed, (dict, list)) else content
    return ""


def tool_turn(messages):
    """The next tool call (name, arguments) of a function-calling agent, or None when it is done."""
    said = "\n".join(flatten(m.get("content")) for m in messages if m.get("role") in ("system", "user"))
    episode = re.search(r"ep-[0-9a-f]+", said)
    last_call = next((m["tool_calls"][-1]["function"]["name"] for m in reversed(messages)
                      if m.get("role") == "assistant" and m.get("tool_calls")), None)
    if last_call in ("task_finish", "task_answer"):
        return None
    result = next((flatten(m.get("content")) for m in reversed(messages) if m.get("role") == "tool"), "")
    if last_call != "screen" or "elements (" not in result:
        return "screen", {}
    choice = decide("Screen:\n" + result)
    args = dict(choice["arguments"])
    if choice["tool"] in ("task_finish", "task_answer") and episode:
        args["episode"] = episode.group(0)
    return choice["tool"], args


def completion(message, finish, prompt):
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": "scripted",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 20, "total_tokens": len(prompt) // 4 + 20}}


class Handler(BaseHTTPRequestHandler):
    calls = 0

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        prompt = "\n".join(flatten(m.get("content")) for m in body["messages"])
        if body.get("tools"):
            turn = tool_turn(body["messages"])
            if turn is None:
                reply = completion({"role": "assistant", "content": "Wi-Fi is on."}, "stop", prompt)
            else:
                Handler.calls += 1
                call = {"id": f"call_{Handler.calls}", "type": "function",
                        "function": {"name": turn[0], "arguments": json.dumps(turn[1])}}
                reply = completion({"role": "assistant", "content": None, "tool_calls": [call]},
                                   "tool_calls", prompt)
        else:
            reply = completion({"role": "assistant",
                                "content": "Next:\n```json\n" + json.dumps(decide(prompt)) + "\n```"},
                               "stop", prompt)
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
