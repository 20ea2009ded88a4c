"""Screenshots side by side on one phone: mobile-mcp (npm) and droidmcp, through the official MCP
Python SDK, against the embedded phone served over Debian's adb (`droidmcp sim --adb`), plus
droidmcp with the phone in-process. Run by benches/screenshot-vs-mobile-mcp, which sets that up.

Usage: screenshot_vs_mobile_mcp.py MOBILE_MCP_INDEX_JS SERIAL N DROIDMCP_BINARY [DROIDMCP_BINARY…]
Each droidmcp binary (a dev and a release build, say) gets its own rows, labelled by its target dir.
Prints one table row per server: connecting (spawn → initialize → tools/list, ms, and the tool
list's bytes), then p50 and p90 of the screenshot call as the client sees it, droidmcp's own p50
(its reply's `elapsed_ms`: phone, scaling, encoding, without the transport), image bytes, size.
"""

import asyncio
import base64
import json
import os
import statistics
import struct
import sys
import time

from mcp import Client, StdioServerParameters


def image_of(result):
    blocks = [b for b in result.content if getattr(b, "type", "") == "image"]
    assert not result.is_error and len(blocks) == 1, result
    return base64.b64decode(blocks[0].data), blocks[0].mime_type


def dimensions(data, mime):
    if mime == "image/png":
        return struct.unpack(">II", data[16:24])
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    return 0, 0


def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def measure(label, server, tool, args, setup, n):
    started = time.monotonic()
    async with Client(server) as c:
        tools = await c.list_tools()
        connect_ms = (time.monotonic() - started) * 1000
        list_bytes = len(json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools.tools]))
        for name, a in setup:
            await c.call_tool(name, a)
        times, own, sizes = [], [], []
        for i in range(n + 2):
            started = time.monotonic()
            r = await c.call_tool(tool, args)
            elapsed = (time.monotonic() - started) * 1000
            data, mime = image_of(r)
            if i >= 2:
                times.append(elapsed)
                sizes.append(len(data))
                if r.structured_content and "elapsed_ms" in r.structured_content:
                    own.append(r.structured_content["elapsed_ms"])
        w, h = dimensions(data, mime)
        own_p50 = f"{statistics.median(own):.0f}" if own else "–"
        print(f"| {label} | {connect_ms:.0f} ({list_bytes:,} B) | {statistics.median(times):.1f} | "
              f"{p(times, 0.9):.1f} | {own_p50} | {statistics.median(sizes):,.0f} | {w}x{h} "
              f"{mime.split('/')[1]} |", flush=True)


def build_of(binary):
    profile = os.path.basename(os.path.dirname(os.path.abspath(binary)))
    return {"debug": "dev build", "release": "release build"}.get(profile, profile)


async def main(index_js, serial, n, binaries):
    env = dict(os.environ, MOBILEMCP_DISABLE_TELEMETRY="1")
    settings = "com.android.settings"
    print(f"{n} screenshots each after 2 warm-up calls, Settings on screen, long edge 1024 (both defaults)")
    print("| server | connect ms (tool list) | p50 ms | p90 ms | server's own p50 ms | bytes (median) | image |")
    print("|---|---|---|---|---|---|---|")
    await measure("mobile-mcp over adb", StdioServerParameters(command="node", args=[index_js], env=env),
                  "mobile_take_screenshot", {"device": serial},
                  [("mobile_launch_app", {"device": serial, "packageName": settings})], n)
    for binary in binaries:
        build = build_of(binary)
        await measure(f"droidmcp over adb, same phone ({build})",
                      StdioServerParameters(command=binary, args=["--device", serial, "serve", "--stdio"], env=env),
                      "screenshot", {}, [("open_app", {"app": settings})], n)
        await measure(f"droidmcp, phone in-process ({build})",
                      StdioServerParameters(command=binary, args=["serve", "--stdio"], env=env),
                      "screenshot", {}, [("open_app", {"app": settings})], n)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]))
