"""A droidmcp agent on the OpenAI Agents SDK (`pip install openai-agents`), using the SDK's own MCP
client (MCPServerStreamableHttp) for the phone and any OpenAI-compatible chat-completions model.

`droidmcp run NAME --tasks 'aw.settings.*' --agent-cmd 'python3 examples/openai_agents_agent.py'`
starts it once per episode with DROIDMCP_MCP_URL, DROIDMCP_GOAL, DROIDMCP_MAX_STEPS and
DROIDMCP_EPISODE; the model comes from OPENAI_BASE_URL (default https://api.openai.com/v1),
OPENAI_API_KEY and OPENAI_MODEL (default gpt-4o-mini).
"""

import asyncio
import os

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStreamableHttp
from openai import AsyncOpenAI

INSTRUCTIONS = """You operate an Android phone towards the user's goal, one tool call at a time.
Call `screen` to see the element list, then act on elements by their ids (`tap`, `type_text`,
`scroll`, `open_app`, `press_key`). When the goal is reached call `task_finish` with episode
{episode}; when the goal asks a question, call `task_answer` with episode {episode} instead."""


async def main():
    # Traces would go to OpenAI's dashboard; a phone run keeps its record in droidmcp's store.
    set_tracing_disabled(True)
    model = OpenAIChatCompletionsModel(
        model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"),
        openai_client=AsyncOpenAI(
            base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
            api_key=os.environ.get("OPENAI_API_KEY", "none"),
        ),
    )
    phone = MCPServerStreamableHttp(
        params={"url": os.environ["DROIDMCP_MCP_URL"]},
        cache_tools_list=True,
        client_session_timeout_seconds=60,
    )
    async with phone:
        agent = Agent(
            name="phone operator",
            instructions=INSTRUCTIONS.format(episode=os.environ["DROIDMCP_EPISODE"]),
            model=model,
            mcp_servers=[phone],
        )
        # Looking at the screen costs a turn here but no phone step: two turns per step, and slack.
        turns = 2 * int(os.environ["DROIDMCP_MAX_STEPS"]) + 6
        result = await Runner.run(agent, os.environ["DROIDMCP_GOAL"], max_turns=turns)
        print(result.final_output, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
