// An MCP server over stdio that answers tool calls with results that break the protocol, so the client's
// handling of them is tested against a real process. Plain Node.js, no dependencies.
import { createInterface } from "node:readline";

const tools = [
  { name: "content_not_a_list", description: "answers content as a string", inputSchema: { type: "object", properties: {} } },
  { name: "no_content", description: "answers a result with neither content nor structured content", inputSchema: { type: "object", properties: {} } },
  { name: "not_json", description: "answers a line that is not JSON", inputSchema: { type: "object", properties: {} } },
  { name: "fine", description: "answers properly", inputSchema: { type: "object", properties: {} } },
];

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return; // notifications
  const reply = (result) => send({ jsonrpc: "2.0", id: request.id, result });
  switch (request.method) {
    case "initialize":
      return reply({ protocolVersion: request.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "misbehaving", version: "1" } });
    case "tools/list":
      return reply({ tools });
    case "tools/call":
      switch (request.params.name) {
        case "content_not_a_list": return reply({ content: "surprise" });
        case "no_content": return reply({ isError: false });
        case "not_json": return process.stdout.write("this is not JSON-RPC\n");
        default: return reply({ content: [{ type: "text", text: "fine" }] });
      }
    default:
      return send({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "no method " + request.method } });
  }
});
