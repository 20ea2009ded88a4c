"""droidmcp driven by the official MCP Python SDK (PyPI `mcp`), over stdio or streamable HTTP.

Usage: mcp_client_test.py stdio /path/to/droidmcp
       mcp_client_test.py http http://127.0.0.1:PORT/mcp

The SDK speaks its default protocol version (2.3.0: the stateless `2026-07-28` over HTTP, where no
MCP session survives between calls), so everything checked here must work without one.

Checks: the tool list and that every input schema is valid JSON Schema 2020-12; an episode on the
embedded phone (open Clock, create an alarm by tapping elements by id, read it back from the alarm
list); an image block that decodes as PNG; tool errors for bad input; digests (a `screen` digest
aims a later `tap`, a moved element is followed, a gone one refused), `history`, `device_status`,
and a task episode where a refused call costs no step and every action reply says how many are left.
Exits non-zero on any failure.
"""

import asyncio
import base64
import re
import sys

import jsonschema
from mcp import Client, StdioServerParameters

EXPECTED_TOOLS = {
    "tap", "double_tap", "long_press", "swipe", "scroll", "type_text", "press_key", "open_app",
    "list_apps", "screen", "screenshot", "hierarchy", "wait", "devices", "select_device",
    "history", "device_status",
}


def text_of(result):
    return "\n".join(b.text for b in result.content if b.type == "text")


def element_id(screen_text, pattern):
    """The id of the first element line (`12 btn @850,1662: OK`) matching the regex `pattern`."""
    for line in screen_text.splitlines():
        m = re.match(r"^(\d+) ", line)
        if m and re.search(pattern, line):
            return int(m.group(1))
    raise AssertionError(f"no element matches {pattern!r} in:\n{screen_text}")


async def call(c, name, args, expect_error=False):
    r = await c.call_tool(name, args)
    if bool(r.is_error) != expect_error:
        raise AssertionError(f"{name} {args}: is_error={r.is_error}: {text_of(r)}")
    return r


async def run(server):
    async with Client(server) as c:
        tools = (await c.list_tools()).tools
        names = {t.name for t in tools}
        missing = EXPECTED_TOOLS - names
        assert not missing, f"missing tools: {missing}"
        for t in tools:
            jsonschema.Draft202012Validator.check_schema(t.input_schema)
        print(f"tools: {len(tools)}, all input schemas valid (2020-12)")

        # The episode: open Clock, add a 7:00 alarm by tapping elements, read it back.
        r = await call(c, "open_app", {"app": "clock", "observe": True})
        screen = text_of(r)
        assert "com.google.android.deskclock" in screen, screen
        r = await call(c, "tap", {"element": element_id(screen, r"^\d+ btn .*: Alarm$"), "observe": True})
        screen = text_of(r)
        assert "7:00 AM" not in screen, "the alarm exists before the episode"
        r = await call(c, "tap", {"element": element_id(screen, r": Add alarm$"), "observe": True})
        screen = text_of(r)
        # The dial's number, not the hour chip (a toggle), which shows 7 too between 7:00 and 7:59.
        r = await call(c, "tap", {"element": element_id(screen, r"^\d+ btn @[\d,]+(?: selected)?: 7 \| 7 o'clock$"), "observe": True})
        screen = text_of(r)
        # A served phone keeps real time, so the picker opens at the current minute and half of the day.
        r = await call(c, "tap", {"element": element_id(screen, r"^\d+ btn @[\d,]+(?: selected)?: 00 \| 0 minutes$"), "observe": True})
        screen = text_of(r)
        r = await call(c, "tap", {"element": element_id(screen, r"btn .*: AM$"), "observe": True})
        screen = text_of(r)
        r = await call(c, "tap", {"element": element_id(screen, r"btn .*: OK$"), "observe": True})
        screen = text_of(r)
        assert "7:00 AM" in screen, f"the new alarm is not in the list:\n{screen}"
        assert r.structured_content["ok"] is True
        assert isinstance(r.structured_content["elapsed_ms"], int)
        print("episode: alarm 7:00 AM created and read back from the alarm list")

        # Image blocks: JPEG by default, PNG on request.
        r = await call(c, "screenshot", {})
        images = [b for b in r.content if b.type == "image"]
        assert len(images) == 1, r.content
        jpeg = base64.b64decode(images[0].data)
        assert images[0].mime_type == "image/jpeg" and jpeg[:2] == b"\xff\xd8"
        assert "scale" in text_of(r)
        r = await call(c, "screenshot", {"format": "png"})
        png = base64.b64decode([b for b in r.content if b.type == "image"][0].data)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        print(f"image: jpeg {len(jpeg)} bytes, png {len(png)} bytes")

        # Errors the model can act on.
        r = await call(c, "tap", {"element": 99999}, expect_error=True)
        assert "screen" in text_of(r)
        r = await call(c, "tap", {"x": 99999, "y": 5}, expect_error=True)
        assert "outside" in text_of(r)
        r = await call(c, "open_app", {"app": "spreadsheet"}, expect_error=True)
        assert "closest" in text_of(r)
        await call(c, "press_key", {"key": "home"})
        print("errors: stale id, off-screen point, unknown app reported as tool errors")

        await digests_history_and_steps(c)


def element_line(screen_text, pattern):
    """The first element line matching the regex `pattern`, or None."""
    for line in screen_text.splitlines():
        if re.match(r"^\d+ ", line) and re.search(pattern, line):
            return line
    return None


async def digests_history_and_steps(c):
    """Digests and history belong to the phone, so they hold across calls on any protocol; refused
    calls are no steps."""
    r = await call(c, "open_app", {"app": "Settings", "observe": True})
    r = await call(c, "screen", {})
    digest = r.structured_content["digest"]
    assert f"digest {digest}" in text_of(r)
    screen = text_of(r)
    top = element_id(screen, r": Network & internet( \||$)")
    low_line = element_line(screen, r": Display( \||$)")
    assert low_line, screen
    low = int(low_line.split()[0])

    # The content moves up by a third of the screen: the top row leaves, "Display" moves.
    await call(c, "swipe", {"direction": "up", "distance": 700})
    moved = text_of(await call(c, "screen", {}))
    assert element_line(moved, r": Network & internet( \||$)") is None, moved
    assert element_id(moved, r": Display( \||$)") != low, moved

    steps = (await call(c, "history", {"limit": 100})).structured_content
    r = await call(c, "tap", {"element": top, "digest": digest}, expect_error=True)
    assert "no longer on screen" in text_of(r), text_of(r)
    r = await call(c, "tap", {"element": 99999, "digest": "0123456789abcdef"}, expect_error=True)
    assert "unknown observation" in text_of(r), text_of(r)
    after = (await call(c, "history", {"limit": 100})).structured_content
    assert after["total"] - after["refused"] == steps["total"] - steps["refused"], (steps, after)
    assert after["refused"] == steps["refused"] + 2, (steps, after)

    r = await call(c, "tap", {"element": low, "digest": digest, "observe": True})
    echo = text_of(r)
    assert f"#{low} is now #" in echo, echo
    assert "Brightness level" in echo or "Dark theme" in echo, echo
    h = await call(c, "history", {"limit": 100})
    listed = text_of(h)
    assert h.structured_content["total"] >= 4 and "refused" in listed, listed
    assert any(s["kind"] == "tap" and not s["refused"] for s in h.structured_content["steps"]), listed
    print(f"digests: followed #{low} on the moved screen, refused the gone #{top} and an unknown digest; "
          f"history lists {h.structured_content['total']} entries, {h.structured_content['refused']} refused")

    r = await call(c, "device_status", {})
    status = r.structured_content
    assert 0 <= status["battery"]["percent"] <= 100, status
    assert isinstance(status["wifi"], bool) and isinstance(status["airplane_mode"], bool), status
    assert "battery:" in text_of(r) and "Wi-Fi" in text_of(r), text_of(r)
    print(f"device_status: {text_of(r).splitlines()[0]}")

    # A task episode: a refusal costs no step, every action reply says how many are left.
    tasks = await call(c, "task_list", {})
    task = re.search(r"^(\S+) \(\d+ steps\)", text_of(tasks), re.M).group(1)
    started = (await call(c, "task_start", {"task": task})).structured_content
    episode, limit = started["episode"], started["max_steps"]
    r = await call(c, "tap", {"element": 99999}, expect_error=True)
    assert f"not counted as a step; {limit} steps left" in text_of(r), text_of(r)
    r = await call(c, "press_key", {"key": "home"})
    assert f"episode step 1, {limit - 1} left" in text_of(r), text_of(r)
    await call(c, "task_finish", {"episode": episode})
    print(f"episode {episode}: a refused tap left {limit} steps, the next action {limit - 1}")


def main():
    kind, target = sys.argv[1], sys.argv[2]
    server = StdioServerParameters(command=target, args=["serve", "--stdio"]) if kind == "stdio" else target
    asyncio.run(run(server))
    print(f"mcp-python {kind}: passed")


if __name__ == "__main__":
    main()
