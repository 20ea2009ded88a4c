"""mobile-mcp (npm) drives the embedded phone over Debian's adb, through the official MCP Python SDK.

Usage: mobile_mcp_peer_test.py MOBILE_MCP_INDEX_JS SERIAL [DROIDMCP_BINARY]
The adb server (ANDROID_ADB_SERVER_PORT) must already be connected to SERIAL (`droidmcp sim --adb`).
Every device tool a phone can answer must succeed; list-elements must not wait on retries.
Prints `list-elements p50 ms: N` for BENCHMARKS.md and, given DROIDMCP_BINARY, droidmcp's own
`hierarchy` tool on the same phone over the same adb server, side by side. Exits 1 if any check failed.
"""

import asyncio
import json
import os
import statistics
import sys
import time

from mcp import Client, StdioServerParameters

FAILED = []


def check(cond, what):
    # A passing check is one line; a failing one shows everything it saw.
    lines = what.splitlines() or [""]
    shown = lines[0] + (f" (+{len(lines) - 1} lines)" if len(lines) > 1 else "") if cond else what
    print(("ok   " if cond else "FAIL ") + shown, flush=True)
    if not cond:
        FAILED.append(what)


def text_of(result):
    return "\n".join(b.text for b in result.content if getattr(b, "type", "") == "text")


async def call(c, name, args, timeout=60):
    started = time.monotonic()
    r = await asyncio.wait_for(c.call_tool(name, args), timeout)
    return r, (time.monotonic() - started) * 1000


async def main(index_js, serial, binary=None):
    env = dict(os.environ)
    env["MOBILEMCP_DISABLE_TELEMETRY"] = "1"
    server = StdioServerParameters(command="node", args=[index_js], env=env)
    async with Client(server) as c:
        dev = {"device": serial}
        r, _ = await call(c, "mobile_list_available_devices", {})
        check(not r.is_error and serial in text_of(r), f"list_available_devices shows {serial}")

        r, _ = await call(c, "mobile_get_screen_size", dev)
        check(not r.is_error and "1080" in text_of(r), "get_screen_size: " + text_of(r)[:80])

        r, _ = await call(c, "mobile_list_apps", dev)
        t = text_of(r)
        # mobilecli 1.0.9 reads app labels through its own dex server (app_process), which cannot
        # run on the embedded phone: list_apps must either list Settings or fail for that reason.
        check((not r.is_error and "com.android.settings" in t) or "device server" in t,
              "list_apps lists Settings (or fails only on mobilecli's dex server)")
        check("nexuslauncher" not in t, "list_apps does not list the launcher")

        r, _ = await call(c, "mobile_launch_app", {**dev, "packageName": "com.google.android.deskclock"})
        check(not r.is_error, "launch_app Clock: " + text_of(r)[:80])

        r, ms = await call(c, "mobile_get_foreground_app", dev)
        check(not r.is_error and "com.google.android.deskclock" in text_of(r),
              f"get_foreground_app is Clock ({ms:.0f} ms): " + text_of(r)[:80])

        times = []
        for _ in range(7):
            r, ms = await call(c, "mobile_list_elements_on_screen", dev)
            times.append(ms)
            check(not r.is_error and "Alarm" in text_of(r), f"list_elements shows the Clock ({ms:.0f} ms)")
        p50 = statistics.median(times)
        check(p50 < 1000, f"list_elements p50 {p50:.0f} ms is well under a second")
        print(f"list-elements p50 ms: {p50:.0f}", flush=True)
        if binary:
            # The same Clock screen through droidmcp's own MCP server and the same adb server.
            await ours(binary, serial)

        r, _ = await call(c, "mobile_click_on_screen_at_coordinates", {**dev, "x": 540, "y": 1200})
        check(not r.is_error, "click_on_screen_at_coordinates")

        r, _ = await call(c, "mobile_swipe_on_screen", {**dev, "direction": "up"})
        check(not r.is_error, "swipe_on_screen")

        r, _ = await call(c, "mobile_press_button", {**dev, "button": "HOME"})
        check(not r.is_error, "press_button HOME")

        r, _ = await call(c, "mobile_open_url", {**dev, "url": "https://example.org/peer"})
        check(not r.is_error, "open_url: " + text_of(r)[:80])
        r, _ = await call(c, "mobile_get_foreground_app", dev)
        check("com.android.chrome" in text_of(r), "the URL opened in Chrome")

        r, _ = await call(c, "mobile_take_screenshot", dev)
        images = [b for b in r.content if getattr(b, "type", "") == "image"]
        check(not r.is_error and len(images) == 1, "take_screenshot returns an image")

        r, _ = await call(c, "mobile_get_orientation", dev)
        check(not r.is_error and "portrait" in text_of(r), "get_orientation: " + text_of(r)[:60])

        r, _ = await call(c, "mobile_terminate_app", {**dev, "packageName": "com.android.chrome"})
        check(not r.is_error, "terminate_app")

        r, _ = await call(c, "mobile_get_device_logs", {**dev, "limit": 20}, timeout=90)
        check(not r.is_error and "ActivityManager" in text_of(r), "get_device_logs: " + text_of(r)[:100])

        r, _ = await call(c, "mobile_list_crashes", dev)
        check(not r.is_error, "list_crashes: " + text_of(r)[:100])
        try:
            json.loads(text_of(r))
        except ValueError:
            check(False, "list_crashes answers JSON")


async def ours(binary, serial):
    """droidmcp's element list of the same Clock screen, through its MCP server over the same adb."""
    server = StdioServerParameters(command=binary, args=["--device", serial, "serve"], env=dict(os.environ))
    async with Client(server) as c:
        r, _ = await call(c, "hierarchy", {})
        times = []
        for _ in range(7):
            r, ms = await call(c, "hierarchy", {})
            times.append(ms)
            check(not r.is_error and text_of(r) != "", f"droidmcp hierarchy ({ms:.0f} ms): {text_of(r)[:200]}")
        print(f"droidmcp hierarchy p50 ms: {statistics.median(times):.0f}", flush=True)


async def run_all(argv):
    await main(argv[1], argv[2], argv[3] if len(argv) > 3 else None)
    if FAILED:
        print(f"{len(FAILED)} mobile-mcp checks failed", flush=True)
        sys.exit(1)
    print("all mobile-mcp checks passed", flush=True)


asyncio.run(run_all(sys.argv))
