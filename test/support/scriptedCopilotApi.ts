/**
 * GitHub's and the Copilot API's few answers the Copilot runtime needs before it talks to a model,
 * in front of a scripted model (scriptedModel.ts), on 127.0.0.1: so VS Code's agent host runs its
 * Copilot harness here with no GitHub account and no network.
 *
 * The levers are VS Code's and the runtime's own test hooks: the workbench hands the agent host
 * `chat.agentHost.unsafeTestToken` as the GitHub token when it runs with the smoke-test driver;
 * the agent host sends its Copilot API calls to VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE (loopback
 * only) and passes it on; the runtime asks COPILOT_DEBUG_GITHUB_API_URL who the token belongs to
 * and COPILOT_API_URL for models. Everything else (the model turns) goes to the scripted model.
 *
 *   const api = await startScriptedCopilotApi();      // before the window: its URL goes in the launch env (api.env)
 *   api.use(await startScriptedModel({ steps: [...] }));  // the model each later turn talks to
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedModel } from './scriptedModel';

/** The model the Copilot API lists: the scripted model, spoken to over Anthropic's messages API. */
const SCRIPTED_CAPI_MODEL = 'scripted-model';

const MODEL_ENTRY = {
  id: SCRIPTED_CAPI_MODEL,
  name: 'Scripted Model',
  object: 'model',
  vendor: 'Anthropic',
  version: SCRIPTED_CAPI_MODEL,
  preview: false,
  model_picker_enabled: true,
  model_picker_category: 'versatile',
  is_chat_default: true,
  is_chat_fallback: true,
  policy: { state: 'enabled', terms: '' },
  billing: { is_premium: false, multiplier: 0 },
  supported_endpoints: ['/v1/messages'],
  capabilities: {
    type: 'chat',
    family: 'claude-sonnet-4',
    object: 'model_capabilities',
    tokenizer: 'o200k_base',
    limits: { max_context_window_tokens: 200_000, max_output_tokens: 16_000, max_prompt_tokens: 128_000 },
    supports: { tool_calls: true, parallel_tool_calls: true, streaming: true },
  },
};

export interface ScriptedCopilotApi {
  readonly url: string;
  /** Environment for code-server (hence the agent host and its runtime). */
  readonly env: Record<string, string>;
  /** Every request, `METHOD path`, in order. */
  readonly seen: readonly string[];
  /** Sends the model turns from now on to `model`. */
  use(model: ScriptedModel): void;
  close(): Promise<void>;
}

export async function startScriptedCopilotApi(): Promise<ScriptedCopilotApi> {
  const seen: string[] = [];
  let target: URL | undefined;
  let url = '';
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push(`${req.method} ${path}`);
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && path.endsWith('/copilot_internal/user')) {
      return json({ login: 'scripted-user', access_type_sku: 'free_limited_copilot', copilot_plan: 'individual', chat_enabled: true, endpoints: { api: url, proxy: url, telemetry: url }, organization_login_list: [] });
    }
    if (req.method === 'GET' && path.endsWith('/copilot_internal/v2/token')) {
      return json({ token: 'scripted-capi-token', expires_at: Math.floor(Date.now() / 1000) + 3600, refresh_in: 1500, endpoints: { api: url, proxy: url } });
    }
    if (req.method === 'GET' && /\/models$/.test(path)) return json({ data: [MODEL_ENTRY], object: 'list' });
    if (req.method === 'GET' && path === '/user') return json({ login: 'scripted-user', id: 1 });
    // GitHub's own MCP server, which the runtime adds by itself: not part of these tests.
    if (path.startsWith('/mcp')) return res.writeHead(404).end();
    if (req.method !== 'POST') return json({});
    if (!target) return res.writeHead(503).end('no scripted model yet');
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (e) => res.writeHead(502).end(String(e)));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    use: (model) => void (target = new URL(model.url)),
    env: { VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE: url, COPILOT_API_URL: url, COPILOT_DEBUG_GITHUB_API_URL: url },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
