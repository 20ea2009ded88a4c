"""A droidmcp agent on LangGraph: a ReAct graph whose tools are the phone's MCP tools as
langchain-mcp-adapters loads them (`pip install langgraph langchain-mcp-adapters langchain-openai`).

`droidmcp run NAME --tasks 'aw.settings.*' --agent-cmd 'python3 examples/langgraph_agent.py'`;
the environment it reads is in agent_env.py.
"""

import asyncio

from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

import agent_env as run


async def main():
    phone = MultiServerMCPClient({"phone": {"url": run.MCP_URL, "transport": "streamable_http"}})
    tools = await phone.get_tools()
    model = ChatOpenAI(model=run.MODEL, base_url=run.BASE_URL, api_key=run.API_KEY, temperature=0)
    agent = create_react_agent(model, tools, prompt=run.INSTRUCTIONS)
    # A model turn and a tool call are a graph step each: four per phone step, and slack.
    config = {"recursion_limit": 4 * run.MAX_STEPS + 10}
    result = await agent.ainvoke({"messages": [("user", run.GOAL)]}, config)
    print(result["messages"][-1].content, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
