"""The baseline of the MCP benchmark: the same echo tool as fixture.echo (Tests/Fixtures/echo_c.c),
served over stdio by the official Python MCP SDK (`MCPServer`, formerly FastMCP)."""
from typing import TypedDict

from mcp.server.mcpserver import MCPServer


class Echoed(TypedDict):
    text: str

server = MCPServer("echo")


@server.tool(name="fixture.echo", description="Returns its input object unchanged.", structured_output=True)
def echo(text: str) -> Echoed:
    return {"text": text}


if __name__ == "__main__":
    server.run()
