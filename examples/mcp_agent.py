"""A minimal droidmcp agent: the official MCP Python SDK for the phone, any OpenAI-compatible model.

`droidmcp run NAME --agent-cmd 'python3 examples/mcp_agent.py'` starts it once per episode with:
  DROIDMCP_MCP_URL    the episode phone's MCP endpoint (streamable HTTP, loopback)
  DROIDMCP_GOAL       what to achieve
  DROIDMCP_MAX_STEPS  how many phone actions the episode allows
  DROIDMCP_EPISODE    the episode id `task_answer` and `task_finish` take
and the model from OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY and
OPENAI_MODEL (default gpt-4o-mini).

Each turn: read the screen (free: looking is not a step), ask the model for one tool call as JSON
(`{"tool": "tap", "arguments": {"element": 12}}`), make it. `task_finish` or `task_answer` ends the
episode. Needs only `pip install mcp`.
"""

import asyncio
import json
import os
import re
import sys
import urllib.request

from mcp import Client

TOOLS = """Tools (JSON arguments):
- tap {"element": ID}            - type_text {"element": ID, "text": "...", "submit": false}
- scroll {"direction": "down"}   - press_key {"key": "back" | "home" | "enter"}
- open_app {"app": "Clock"}      - swipe {"direction": "up"}
- task_answer {"answer": "..."}  (the goal asks a question; ends the task)
- task_finish {}                  (the goal is reached; ends the task)
Reply with exactly one JSON object: {"tool": NAME, "arguments": {...}}."""


def ask_model(goal, screen, history):
    base = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1").rstrip("/")
    body = {
        "model": os.environ.get("OPENAI_MODEL", "gpt-4o-mini"),
        "temperature": 0,
        "messages": [
            {"role": "system", "content": "You operate an Android phone towards a goal.\n" + TOOLS},
            {"role": "user", "content": f"Goal: {goal}\n\nSo far:\n{history or '(nothing)'}\n\nScreen:\n{screen}"},
        ],
    }
    request = urllib.request.Request(
        base + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json",
                 "authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "none")},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        text = json.load(response)["choices"][0]["message"]["content"] or ""
    match = re.search(r"\{.*\}", text, re.S)
    if not match:
        raise ValueError(f"the model gave no JSON: {text!r}")
    return json.loads(match.group(0))


def text_of(result):
    return "\n".join(b.text for b in result.content if b.type == "text")


async def main():
    url, goal = os.environ["DROIDMCP_MCP_URL"], os.environ["DROIDMCP_GOAL"]
    episode, max_steps = os.environ["DROIDMCP_EPISODE"], int(os.environ["DROIDMCP_MAX_STEPS"])
    history = []
    async with Client(url) as phone:
        for _ in range(max_steps + 3):
            screen = text_of(await phone.call_tool("screen", {}))
            try:
                choice = ask_model(goal, screen, "\n".join(history))
                tool, args = choice["tool"], dict(choice.get("arguments") or {})
            except (ValueError, KeyError, TypeError) as e:
                history.append(f"(unusable reply: {e})")
                continue
            if tool in ("task_finish", "task_answer"):
                args["episode"] = episode
            result = await phone.call_tool(tool, args)
            history.append(f"{tool} {json.dumps(args)} -> {text_of(result).splitlines()[0] if result.content else ''}")
            print(history[-1], flush=True)
            if tool in ("task_finish", "task_answer") and not result.is_error:
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
