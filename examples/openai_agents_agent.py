"""A droidmcp agent on the OpenAI Agents SDK (`pip install openai-agents`): the SDK's own MCP client
(MCPServerStreamableHttp) holds the phone, a chat-completions model decides.

`droidmcp run NAME --tasks 'aw.settings.*' --agent-cmd 'python3 examples/openai_agents_agent.py'`;
the environment it reads is in agent_env.py.
"""

import asyncio

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStreamableHttp
from openai import AsyncOpenAI

import agent_env as run


async def main():
    # Traces would go to OpenAI's dashboard; a phone run keeps its record in droidmcp's store.
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=run.BASE_URL, api_key=run.API_KEY)
    model = OpenAIChatCompletionsModel(model=run.MODEL, openai_client=client)
    phone = MCPServerStreamableHttp(
        params={"url": run.MCP_URL}, cache_tools_list=True, client_session_timeout_seconds=60
    )
    async with phone:
        agent = Agent(
            name="phone operator", instructions=run.INSTRUCTIONS, model=model, mcp_servers=[phone]
        )
        # Looking at the screen costs a turn but no phone step: two turns a step, and slack.
        result = await Runner.run(agent, run.GOAL, max_turns=2 * run.MAX_STEPS + 6)
        print(result.final_output, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
