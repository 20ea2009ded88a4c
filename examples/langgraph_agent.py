"""A droidmcp agent on LangGraph: a ReAct agent whose tools are the phone's MCP tools, loaded by
langchain-mcp-adapters (`pip install langgraph langchain-mcp-adapters langchain-openai`).

`droidmcp run NAME --tasks 'aw.settings.*' --agent-cmd 'python3 examples/langgraph_agent.py'`
starts it once per episode with DROIDMCP_MCP_URL, DROIDMCP_GOAL, DROIDMCP_MAX_STEPS and
DROIDMCP_EPISODE; the model comes from OPENAI_BASE_URL (default https://api.openai.com/v1),
OPENAI_API_KEY and OPENAI_MODEL (default gpt-4o-mini).
"""

import asyncio
import os

from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

INSTRUCTIONS = """You operate an Android phone towards the user's goal, one tool call at a time.
Call `screen` to see the element list, then act on elements by their ids (`tap`, `type_text`,
`scroll`, `open_app`, `press_key`). When the goal is reached call `task_finish` with episode
{episode}; when the goal asks a question, call `task_answer` with episode {episode} instead."""


async def main():
    phone = MultiServerMCPClient(
        {"phone": {"url": os.environ["DROIDMCP_MCP_URL"], "transport": "streamable_http"}}
    )
    tools = await phone.get_tools()
    model = ChatOpenAI(
        model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"),
        base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
        api_key=os.environ.get("OPENAI_API_KEY", "none"),
        temperature=0,
    )
    agent = create_react_agent(
        model, tools, prompt=INSTRUCTIONS.format(episode=os.environ["DROIDMCP_EPISODE"])
    )
    # Each tool call and each model turn is a graph step: four per phone step, and slack.
    limit = 4 * int(os.environ["DROIDMCP_MAX_STEPS"]) + 10
    result = await agent.ainvoke(
        {"messages": [("user", os.environ["DROIDMCP_GOAL"])]}, {"recursion_limit": limit}
    )
    print(result["messages"][-1].content, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
