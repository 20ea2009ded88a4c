"""A task episode driven by the official MCP Python SDK over stdio: task_start → phone actions →
task_finish → task_check (success, score 1.0, evidence), plus the error cases (unknown task,
answering an operation task, checking an ended episode). Exits non-zero on any failure.

Usage: tasks_client_test.py /path/to/droidmcp
"""

import asyncio
import sys

from mcp import Client, StdioServerParameters


def text_of(result):
    return "\n".join(b.text for b in result.content if b.type == "text")


async def call(c, name, args, expect_error=False):
    r = await c.call_tool(name, args)
    if bool(r.is_error) != expect_error:
        raise AssertionError(f"{name} {args}: is_error={r.is_error}: {text_of(r)}")
    return r


async def run(binary):
    server = StdioServerParameters(command=binary, args=["serve", "--stdio"])
    async with Client(server) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        for tool in ["task_list", "task_start", "task_answer", "task_finish", "task_check", "task_end"]:
            assert tool in names, f"missing {tool}"
        listed = (await call(c, "task_list", {"tag": "b-moca"})).structured_content["tasks"]
        assert len(listed) >= 70, len(listed)

        await call(c, "task_start", {"task": "no.such.task"}, expect_error=True)

        started = (await call(c, "task_start", {"task": "aw.settings.wifi_off", "seed": 1})).structured_content
        ep = started["episode"]
        assert started["goal"] == "Turn wifi off.", started
        for target in ["Network & internet", "Internet", "Wi-Fi"]:
            if target == "Network & internet":
                await call(c, "open_app", {"app": "settings"})
            await call(c, "tap", {"text": target})
        await call(c, "task_answer", {"episode": ep, "answer": "done"}, expect_error=True)
        await call(c, "task_finish", {"episode": ep})
        report = (await call(c, "task_check", {"episode": ep})).structured_content
        assert report["success"] is True and report["score"] == 1.0, report
        assert report["steps_used"] >= 3, report
        assert report["checks"][0]["evidence"][0]["command"] == "settings get global wifi_on", report
        await call(c, "task_end", {"episode": ep})
        await call(c, "task_check", {"episode": ep}, expect_error=True)
        print(f"episode {ep}: success, score 1.0, {report['steps_used']} steps")


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1]))
    print("tasks-python: passed")
