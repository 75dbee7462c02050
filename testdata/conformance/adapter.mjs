// The client command of the conformance suite: it runs mcpscope's headless commands as a user
// would, with default flags, against the scenario's server. The suite appends the server URL to
// the command and names the scenario in MCP_CONFORMANCE_SCENARIO; $MCPSCOPE is the mcpscope
// executable. Scenario-specific choices are only what a user would type for that server: which
// tool to call with which arguments, and how to answer an elicitation.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const mcpscope = process.env.MCPSCOPE;
if (!mcpscope) {
  console.error('adapter: $MCPSCOPE (the mcpscope executable) is not set');
  process.exit(2);
}

// The scenario's context, when the suite gives one (for example the tool calls to make, or
// the credentials of a pre-registered client).
let context = {};
try {
  context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
} catch {
  context = {};
}

// Authorization, as a user would set it up: a pre-registered client when the suite gives
// one (the secret through the environment), and the URL of the client's metadata document,
// used where the authorization server supports them. The browser is a command that follows
// the authorization URL, as the suite's authorization servers approve at once.
const authFlags = ['--client-metadata-url', 'https://conformance-test.local/client-metadata.json'];
const browser = fileURLToPath(new URL('browser.mjs', import.meta.url));
const env = { ...process.env, BROWSER: `${process.execPath} ${browser}` };
if (context.client_id) {
  authFlags.push('--client-id', context.client_id);
  if (context.client_secret) env.MCPSCOPE_CLIENT_SECRET = context.client_secret;
}

// The extension grants, where the scenario's server wants one: the grant a user would
// choose, and the credential it hands out on stdin (`-`), as a user would pipe it.
let stdin;
switch (scenario) {
  case 'auth/client-credentials-basic':
    authFlags.push('--grant', 'client-credentials');
    break;
  case 'auth/client-credentials-jwt':
    authFlags.push('--grant', 'client-credentials', '--private-key', '-', '--signing-algorithm', context.signing_algorithm);
    stdin = context.private_key_pem;
    break;
  case 'auth/cross-app-access-complete-flow':
  case 'auth/enterprise-managed-authorization':
    authFlags.push('--grant', 'enterprise', '--id-token', '-', '--idp-token-endpoint', context.idp_token_endpoint,
      '--idp-client-id', context.idp_client_id);
    stdin = context.idp_id_token;
    break;
  case 'auth/wif-jwt-bearer':
    authFlags.push('--grant', 'jwt-bearer', '--assertion', '-');
    stdin = context.valid_jwt;
    break;
}

// run executes one mcpscope command with --url last and returns its stdout (JSON).
function run(...args) {
  const argv = [...authFlags, ...args, '--url', url];
  console.error('$ mcpscope ' + argv.join(' '));
  try {
    return execFileSync(mcpscope, argv, {
      encoding: 'utf8',
      input: stdin,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
      env,
      maxBuffer: 64 << 20
    });
  } catch (err) {
    console.error(`adapter: mcpscope ${args[0]} exited with ${err.status}`);
    process.exitCode = 1;
    return err.stdout ?? '';
  }
}

// listed runs a listing command and returns its entries: the JSON array it prints, or the
// array under key when it prints an object; [] when the output is not JSON.
function listed(key, ...args) {
  try {
    const parsed = JSON.parse(run(...args));
    return Array.isArray(parsed) ? parsed : (parsed[key] ?? []);
  } catch {
    return [];
  }
}

function tools() {
  return listed('tools', 'list', 'tools');
}

// callFirstTool lists the tools and calls the first one, the way the reference client does.
function callFirstTool(...args) {
  const list = tools();
  if (list.length > 0) run('call', list[0].name, ...args);
}

// skills lists the server's skills (Skills extension) and returns their entries.
function skills() {
  return listed('skills', 'skills', 'list');
}

if (Array.isArray(context.toolCalls) && context.toolCalls.length > 0) {
  // The suite says which tools to call with which arguments: call each as a user would.
  tools();
  for (const call of context.toolCalls) {
    run('call', call.name, '--args', JSON.stringify(call.arguments ?? {}));
  }
} else switch (scenario) {
  case 'initialize':
  case 'tools_call':
    callFirstTool('a=2', 'b=3');
    break;
  case 'elicitation-sep1034-client-defaults':
    run('--elicit', 'accept-defaults', 'call', 'test_client_elicitation_defaults');
    break;
  case 'sse-retry':
    run('call', 'test_reconnection');
    break;
  case 'request-metadata':
  case 'json-schema-ref-no-deref':
    tools();
    break;
  case 'json-schema-2020-12-preservation': {
    const focal = tools().find((t) => t.name === 'json_schema_2020_12_tool');
    if (focal) {
      run('call', 'json_schema_echo', '--args', JSON.stringify({ schema: focal.inputSchema }));
    }
    break;
  }
  case 'sep-2322-client-request-state':
    tools();
    for (const tool of ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) {
      run('--elicit', 'accept-defaults', 'call', tool);
    }
    break;
  case 'sep-2640-client-no-prefetch':
    // Listing must not read any skill file.
    skills();
    break;
  case 'sep-2640-client-verify-digest':
  case 'sep-2640-client-verify-size':
  case 'sep-2640-client-verify-frontmatter':
    for (const s of skills()) {
      run('skills', 'get', s.uri ?? s.name, '--all');
    }
    break;
  default:
    // Everything else (authorization, headers, skills): list the tools and call the first.
    callFirstTool();
}
