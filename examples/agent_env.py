"""What `droidmcp run --agent-cmd` hands an example agent, read once for the framework examples.

Per episode: DROIDMCP_MCP_URL (the episode phone's MCP endpoint, streamable HTTP on loopback),
DROIDMCP_GOAL, DROIDMCP_MAX_STEPS and DROIDMCP_EPISODE (the id `task_finish` and `task_answer`
take). The model: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY and
OPENAI_MODEL (default gpt-4o-mini); any OpenAI-compatible server with function calling works.
"""

import os

MCP_URL = os.environ["DROIDMCP_MCP_URL"]
GOAL = os.environ["DROIDMCP_GOAL"]
MAX_STEPS = int(os.environ["DROIDMCP_MAX_STEPS"])
EPISODE = os.environ["DROIDMCP_EPISODE"]

BASE_URL = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
API_KEY = os.environ.get("OPENAI_API_KEY", "none")
MODEL = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")

INSTRUCTIONS = f"""You operate an Android phone towards the user's goal, one tool call at a time.
Call `screen` to see the element list, then act on elements by their ids (`tap`, `type_text`,
`scroll`, `open_app`, `press_key`). When the goal is reached call `task_finish` with episode
{EPISODE}; when the goal asks a question, call `task_answer` with episode {EPISODE} instead."""
