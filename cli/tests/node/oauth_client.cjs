// The MCP TypeScript SDK's OAuth client (npm's @modelcontextprotocol/sdk) against `surqlc mcp --per-user`:
// the first 401, the protected-resource metadata, the authorization server's metadata, dynamic client
// registration, the authorization code with PKCE and the token for the resource are all the SDK's own.
// The "browser" is a fetch that follows nothing: the stand-in authorization server approves at once and
// redirects to the callback with the code, which this script hands back to the SDK (finishAuth).
// Usage: node oauth_client.cjs MCP_URL QUERY   (NODE_PATH: a node_modules holding the SDK)
// Prints one line of JSON: {"rows": ..., "client_id": ...}.
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { UnauthorizedError } = require("@modelcontextprotocol/sdk/client/auth.js");

const [url, query] = process.argv.slice(2);
const REDIRECT = "http://127.0.0.1:9/callback";

class Provider {
  constructor() {
    this.saved = {};
    this.code = undefined;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "surqlc interop (TypeScript SDK)",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "ts-sdk-state";
  }
  clientInformation() {
    return this.saved.client;
  }
  saveClientInformation(info) {
    this.saved.client = info;
  }
  tokens() {
    return this.saved.tokens;
  }
  saveTokens(tokens) {
    this.saved.tokens = tokens;
  }
  saveCodeVerifier(verifier) {
    this.saved.verifier = verifier;
  }
  codeVerifier() {
    return this.saved.verifier;
  }
  async redirectToAuthorization(authorizationUrl) {
    // The user's browser: the stand-in signs the user in and answers with the redirect.
    const answer = await fetch(authorizationUrl, { redirect: "manual" });
    const location = new URL(answer.headers.get("location"));
    if (location.searchParams.get("state") !== "ts-sdk-state") throw new Error(`state: ${location}`);
    this.code = location.searchParams.get("code");
    this.authorizationUrl = authorizationUrl.toString();
  }
}

async function main() {
  const provider = new Provider();
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  try {
    await new Client({ name: "surqlc-oauth-interop", version: "0" }).connect(first);
    throw new Error("connected without signing in");
  } catch (e) {
    if (!(e instanceof UnauthorizedError) || !provider.code) throw e;
  }
  await first.finishAuth(provider.code);
  const client = new Client({ name: "surqlc-oauth-interop", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  const answer = await client.callTool({ name: "run_query", arguments: { query } });
  if (answer.isError) throw new Error(JSON.stringify(answer));
  const resource = new URL(provider.authorizationUrl).searchParams.get("resource");
  console.log(JSON.stringify({ rows: answer.structuredContent.rows, client_id: provider.saved.client.client_id, resource }));
  await client.close();
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
