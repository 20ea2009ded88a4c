"""Screenshots side by side on one phone: mobile-mcp (npm) and droidmcp, through the official MCP
Python SDK, against the embedded phone served over Debian's adb (`droidmcp sim --adb`), plus
droidmcp with the phone in-process. Run by benches/screenshot-vs-mobile-mcp, which sets that up.

Usage: screenshot_vs_mobile_mcp.py MOBILE_MCP_INDEX_JS SERIAL DROIDMCP_BINARY [N]
Prints one table row per server: p50 and p90 of the tool call in ms, image bytes, image size.
"""

import asyncio
import base64
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


async def measure(label, server, tool, args, setup, n):
    async with Client(server) as c:
        for name, a in setup:
            await c.call_tool(name, a)
        times, sizes = [], []
        for _ in range(n + 2):
            started = time.monotonic()
            r = await c.call_tool(tool, args)
            times.append((time.monotonic() - started) * 1000)
            data, mime = image_of(r)
            sizes.append(len(data))
        times = sorted(times[2:])
        w, h = dimensions(data, mime)
        print(f"| {label} | {statistics.median(times):.1f} | {times[int(len(times) * 0.9) - 1]:.1f} "
              f"| {statistics.median(sizes[2:]):.0f} | {w}x{h} {mime.split('/')[1]} |", flush=True)


async def main(index_js, serial, binary, n):
    env = dict(os.environ, MOBILEMCP_DISABLE_TELEMETRY="1")
    settings = "com.android.settings"
    print(f"{n} calls each after 2 warm-up calls, Settings on screen, long edge 1024")
    print("| server | p50 ms | p90 ms | bytes (median) | image |")
    print("|---|---|---|---|---|")
    await measure("mobile-mcp over adb", StdioServerParameters(command="node", args=[index_js], env=env),
                  "mobile_take_screenshot", {"device": serial},
                  [("mobile_launch_app", {"device": serial, "packageName": settings})], n)
    await measure("droidmcp over adb (same phone)",
                  StdioServerParameters(command=binary, args=["--device", serial, "serve", "--stdio"], env=env),
                  "screenshot", {}, [("open_app", {"app": settings})], n)
    await measure("droidmcp in-process phone",
                  StdioServerParameters(command=binary, args=["serve", "--stdio"], env=env),
                  "screenshot", {}, [("open_app", {"app": settings})], n)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 30))
