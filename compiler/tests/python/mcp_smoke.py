"""Smoke test of `surqlc mcp` with the official Python MCP SDK (`pip install mcp`).

Run by compiler/tests/mcp.rs when `python3` (or $SURQLC_MCP_PYTHON) can import `mcp`:
    python3 mcp_smoke.py SURQLC_BINARY REPO_ROOT
Prints "ok" and exits 0 when every check holds.
"""

import asyncio
import json
import logging
import re
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, snake, camel):
    """SDK 2.x names fields in snake_case, 1.x as on the wire."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def data(result):
    """run_query's JSON: between the answer's untrusted-data markers, and the same as structuredContent."""
    said = text(result)
    match = re.search(r"\n<untrusted-data-([0-9a-f]{32})>\n(.*)\n</untrusted-data-\1>", said, re.S)
    assert match, said
    inner = json.loads(match.group(2))
    assert field(result, "structured_content", "structuredContent") == inner, said
    return inner


async def main(binary, root):
    params = StdioServerParameters(
        command=binary,
        args=["mcp", "schemas/store.rs", "--seed", "schemas/store.seed.surql"],
        cwd=root,
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            names = [t.name for t in tools.tools]
            assert names == ["schema", "check_query", "run_query"], names
            assert all(field(t.annotations, "read_only_hint", "readOnlyHint") for t in tools.tools)
            ok = await session.call_tool("run_query", {"query": "SELECT count() AS n FROM customer GROUP ALL"})
            assert not field(ok, "is_error", "isError"), text(ok)
            assert data(ok)["rows"] == [{"n": 5}], text(ok)
            refused = await session.call_tool("run_query", {"query": "DELETE customer"})
            assert field(refused, "is_error", "isError"), text(refused)
            checked = await session.call_tool("check_query", {"query": "SELECT nmae FROM customer LIMIT 5"})
            assert "name" in text(checked), text(checked)
            schema = await session.call_tool("schema", {"question": "Who are our customers?"})
            assert text(schema).startswith("SCHEMA\n"), text(schema)
    await over_http(binary, root)
    print("ok")


class Warnings(logging.Handler):
    """Collects the SDK's warnings (a failed session termination is one)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


async def over_http(binary, root):
    """Streamable HTTP: the same tools, and closing the session is answered as the SDK expects."""
    from mcp.client.streamable_http import streamable_http_client

    server = subprocess.Popen(
        [binary, "mcp", "schemas/store.rs", "--seed", "schemas/store.seed.surql", "--http", "127.0.0.1:0"],
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = None
        for line in server.stderr:
            if line.startswith("serving MCP at "):
                url = line[len("serving MCP at "):].strip()
                break
        assert url, "surqlc said where it serves"
        warnings = Warnings()
        logging.getLogger("mcp").addHandler(warnings)
        async with streamable_http_client(url) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await session.initialize()
                ok = await session.call_tool("run_query", {"query": "SELECT count() AS n FROM customer GROUP ALL"})
                assert data(ok)["rows"] == [{"n": 5}], text(ok)
        assert not [m for m in warnings.messages if "termination" in m], warnings.messages
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
