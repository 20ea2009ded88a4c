"""The installed wheel as MCP clients start it: every client snippet of docs/clients.md and the
command line server.json gives, run by the official MCP Python SDK from a fresh venv that holds
only the wheel (and the SDK).

Usage: wheel_clients_test.py VENV_BIN docs/clients.md server.json

For each: start the stdio command line (its `droidmcp` resolved in VENV_BIN, the way a client finds
it on PATH), list the tools, tap the screen, and read that the tap landed. Exits non-zero on any
failure.
"""

import asyncio
import json
import os
import re
import shlex
import subprocess
import sys

from mcp import Client, StdioServerParameters


def snippets(markdown):
    """(client, command, args) of every `<!-- client: NAME -->` code block."""
    out = []
    for m in re.finditer(r"<!-- client: ([\w-]+) -->\s*```(\w+)\n(.*?)```", markdown, re.S):
        name, lang, body = m.group(1), m.group(2), m.group(3)
        if lang == "json":
            config = json.loads(body)
            servers = config.get("mcpServers") or config.get("servers")
            (entry,) = servers.values()
            assert entry.get("type", "stdio") == "stdio", f"{name}: not stdio"
            out.append((name, entry["command"], entry["args"]))
        else:
            words = shlex.split(body)
            assert "--" in words, f"{name}: no `--` before the server's command line"
            line = words[words.index("--") + 1 :]
            out.append((name, line[0], line[1:]))
    return out


def registry_command(server_json):
    """The command line server.json's stdio package describes."""
    (package,) = [p for p in server_json["packages"] if p["transport"]["type"] == "stdio"]
    args = []
    for a in package.get("packageArguments", []):
        if a["type"] == "positional":
            args.append(a["value"])
        else:
            args.append(a["name"])
            if "value" in a:
                args.append(a["value"])
    return package["identifier"], args


PACKAGE_FIELDS = {"registryType", "registryBaseUrl", "identifier", "version", "fileSha256",
                  "runtimeHint", "transport", "runtimeArguments", "packageArguments",
                  "environmentVariables"}


def registry_rules(manifest):
    """The registry schema's rules (2025-12-11) that this manifest relies on. The schema itself is
    published by the registry's site, not in a package CI can install, so its rules are restated."""
    assert manifest["$schema"].endswith("/schemas/2025-12-11/server.schema.json"), manifest["$schema"]
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", manifest["name"]), manifest["name"]
    assert 3 <= len(manifest["name"]) <= 200
    assert 1 <= len(manifest["description"]) <= 100, len(manifest["description"])
    assert not re.search(r"[\^~<>*]|\.x\b", manifest["version"]), "a version, not a range"
    for p in manifest["packages"]:
        assert set(p) <= PACKAGE_FIELDS, set(p) - PACKAGE_FIELDS
        assert p["registryType"] == "pypi" and p["version"] != "latest"
        assert p["transport"]["type"] in ("stdio", "streamable-http", "sse")
        for a in p.get("packageArguments", []) + p.get("runtimeArguments", []):
            assert a["type"] in ("positional", "named"), a
            assert a["type"] != "positional" or "value" in a or "valueHint" in a, a
            assert a["type"] != "named" or a["name"].startswith("-"), a
        for v in p.get("environmentVariables", []):
            assert re.fullmatch(r"[A-Z_][A-Z0-9_]*", v["name"]), v


def text_of(result):
    return "\n".join(b.text for b in result.content if b.type == "text")


async def check(name, command, args, bin_dir):
    assert command == "droidmcp", f"{name}: starts {command!r}, not the installed command"
    server = StdioServerParameters(
        command=os.path.join(bin_dir, command),
        args=args,
        env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")},
    )
    async with Client(server) as c:
        tools = {t.name for t in (await c.list_tools()).tools}
        assert {"tap", "screen", "open_app"} <= tools, f"{name}: tools {sorted(tools)}"
        r = await c.call_tool("tap", {"x": 540, "y": 1200})
        assert not r.is_error, f"{name}: tap failed: {text_of(r)}"
        assert "tap" in text_of(r), f"{name}: {text_of(r)}"
    print(f"{name}: `{command} {' '.join(args)}` lists {len(tools)} tools and taps")


async def main():
    bin_dir, clients_md, server_json = sys.argv[1:4]
    found = snippets(open(clients_md).read())
    names = {n for n, _, _ in found}
    assert {"claude-desktop", "cursor", "vscode", "claude-code"} <= names, names
    manifest = json.load(open(server_json))
    installed = subprocess.run(
        [os.path.join(bin_dir, "droidmcp"), "--version"], capture_output=True, text=True, check=True
    ).stdout.split()[-1]
    registry_rules(manifest)
    help_text = subprocess.run([os.path.join(bin_dir, "droidmcp"), "serve", "--help"],
                               capture_output=True, text=True, check=True).stdout
    for v in manifest["packages"][0].get("environmentVariables", []):
        assert v["name"] in help_text, f"server.json names {v['name']}, which `serve --help` does not"
    versions = {manifest["version"]} | {p["version"] for p in manifest["packages"]}
    assert versions == {installed}, f"server.json says {versions}, the wheel is {installed}"
    found.append(("server.json", *registry_command(manifest)))
    for name, command, args in found:
        await check(name, command, args, bin_dir)


if __name__ == "__main__":
    asyncio.run(main())
