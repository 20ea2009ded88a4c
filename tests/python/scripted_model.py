"""A scripted OpenAI-compatible model for the example agents' tests: it reads the screen in the
prompt and turns Wi-Fi on the way a person would (Settings → Network & internet → Internet → the
Wi-Fi switch), then calls task_finish. Stands in for a paid API only; the agent, the MCP SDK and
droidmcp are real.

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


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        prompt = "\n".join(m["content"] for m in body["messages"] if isinstance(m.get("content"), str))
        reply = {"choices": [{"index": 0, "message": {"role": "assistant",
                  "content": "Next:\n```json\n" + json.dumps(decide(prompt)) + "\n```"}}],
                 "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 20}}
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
