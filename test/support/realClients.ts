/**
 * The real third-party MCP clients the e2e suite proves Terminal Shepherd with, from the npm
 * registry at pinned versions, installed once into .vscode-test/clients/<name>-<version>/ (a
 * marker per client, one lock for every install, like code-server), and run the way a person
 * runs them, but in a home folder of the test's own: HOME, XDG_* and USERPROFILE point into it
 * and the host's model keys are dropped, so nothing reads or writes the person's real setup.
 *
 *   const [claude] = await ensureRealClients(['claude']);
 *   const home = new ClientHome();
 *   const listed = await home.run(claude, ['mcp', 'list'], { cwd: workspace });
 *   const model = await startScriptedModel({ steps: [...] });             // scriptedModel.ts
 *   const turn = await home.agentTurn(claude, { cwd: workspace, prompt: 'run it', model });
 *   home.remove();
 *
 * agentTurn runs one non-interactive turn of a client against a scripted model (its base URL and
 * a dummy key), with the client's own flag for running tools without a person to ask.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanNpmEnv, findRepoRoot, npmCliScript, readMarker, resetFolder, run, withLock, writeMarker } from '../../.devtools/scripts/installSteps';
import type { ScriptedModel } from './scriptedModel';

export type RealClientName = 'claude' | 'codex' | 'gemini' | 'opencode' | 'copilot';

/** Pinned: bump deliberately, then update the table of proven versions in docs/clients.md. */
export const REAL_CLIENTS: Readonly<Record<RealClientName, { readonly package: string; readonly version: string; readonly bin: string }>> = {
  claude: { package: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { package: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  opencode: { package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  copilot: { package: '@github/copilot', version: '1.0.102', bin: 'copilot' },
};

export interface RealClient {
  readonly name: RealClientName;
  readonly package: string;
  readonly version: string;
  /** The executable npm linked (node_modules/.bin/<bin>). */
  readonly bin: string;
}

function clientPaths(name: RealClientName, repoRoot = findRepoRoot()) {
  const pin = REAL_CLIENTS[name];
  const root = path.join(repoRoot, '.vscode-test', 'clients', `${name}-${pin.version}`);
  return { root, marker: path.join(root, '.installed.json'), bin: path.join(root, 'node_modules', '.bin', pin.bin) };
}

function installed(name: RealClientName): boolean {
  const p = clientPaths(name);
  return readMarker(p.marker)?.version === REAL_CLIENTS[name].version && existsSync(p.bin);
}

const log = (message: string): void => void process.stderr.write(`[real-clients] ${message}\n`);

/** Installs what is missing (about 20 s each the first time; nothing afterwards) and returns the clients. */
export async function ensureRealClients(names: readonly RealClientName[] = ['claude', 'codex', 'gemini', 'opencode']): Promise<RealClient[]> {
  const missing = names.filter((n) => !installed(n));
  if (missing.length > 0) {
    const dir = path.join(findRepoRoot(), '.vscode-test', 'clients');
    mkdirSync(dir, { recursive: true });
    const logFile = path.join(dir, 'install.log');
    await withLock(path.join(dir, '.install.lock'), 15 * 60_000, log, async () => {
      for (const name of missing.filter((n) => !installed(n))) {
        const pin = REAL_CLIENTS[name];
        const p = clientPaths(name);
        log(`installing ${pin.package}@${pin.version} from the npm registry into ${p.root} (log: ${logFile})`);
        resetFolder(p.root, `terminal-shepherd-client-${name}`);
        await run(process.execPath, [npmCliScript(), 'install', '--no-audit', '--no-fund', '--save-exact', `${pin.package}@${pin.version}`], {
          cwd: p.root,
          env: cleanNpmEnv(),
          logFile,
          log,
          what: `npm install ${pin.package}@${pin.version}`,
        });
        if (!existsSync(p.bin)) throw new Error(`npm installed ${pin.package}@${pin.version} but ${p.bin} is missing (log: ${logFile})`);
        writeMarker(p.marker, { package: pin.package, version: pin.version });
      }
    });
  }
  return names.map((name) => ({ name, ...REAL_CLIENTS[name], bin: clientPaths(name).bin }));
}

export interface ClientRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr without colours and cursor codes, as a person reads them. */
  readonly text: string;
}

/** Colours and cursor movement out (the listing commands colour their output). */
export const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');

/** Variables of the host that would reach a real model or the person's own setup. */
const DROPPED = /^(ANTHROPIC_|OPENAI_|CODEX_|GEMINI_|GOOGLE_|CLAUDE_|OPENCODE|COPILOT_|GH_TOKEN|GITHUB_TOKEN|XDG_|npm_|VSCODE_|TERMINAL_SHEPHERD_)/i;

export class ClientHome {
  /** The HOME the clients see. */
  readonly dir: string;

  constructor(dir?: string) {
    this.dir = dir ?? mkdtempSync(path.join(os.tmpdir(), 'tshep-client-home-'));
    mkdirSync(this.dir, { recursive: true });
  }

  /** The environment a client runs with: this home, PATH, nothing of the host's model or client setup. */
  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!DROPPED.test(k)) env[k] = v;
    return {
      ...env,
      HOME: this.dir,
      USERPROFILE: this.dir,
      XDG_CONFIG_HOME: path.join(this.dir, '.config'),
      XDG_DATA_HOME: path.join(this.dir, '.local', 'share'),
      XDG_CACHE_HOME: path.join(this.dir, '.cache'),
      XDG_STATE_HOME: path.join(this.dir, '.local', 'state'),
      // No update checks, telemetry or colour: the suite runs offline and reads the text.
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      NO_COLOR: '1',
      ...extra,
    };
  }

  /** Runs a client to its end (bounded: killed after timeoutMs). */
  run(client: Pick<RealClient, 'bin'>, args: readonly string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<ClientRun> {
    return new Promise((resolve, reject) => {
      // PWD as a shell sets it: opencode starts its MCP servers in $PWD, not in its working directory.
      const child = spawn(client.bin, args, { cwd: options.cwd, env: this.env({ PWD: options.cwd, ...options.env }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timeoutMs = options.timeoutMs ?? 120_000;
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
        reject(new Error(`${client.bin} ${args.join(' ')} did not end within ${timeoutMs / 1000} s.\nstdout: ${stdout}\nstderr: ${stderr}`));
      }, timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, text: stripAnsi(`${stdout}\n${stderr}`) });
      });
    });
  }

  /** One non-interactive agent turn against a scripted model, tools allowed without asking. */
  agentTurn(client: RealClient, options: { cwd: string; prompt: string; model: ScriptedModel; env?: Record<string, string>; timeoutMs?: number }): Promise<ClientRun> {
    const turn = AGENT_TURNS[client.name];
    if (!turn) throw new Error(`${client.name}: no agent turn against a scripted model is wired up`);
    const { args, env } = turn(options.prompt, options.model);
    return this.run(client, args, { cwd: options.cwd, env: { ...env, ...options.env }, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The model the scripted server claims to be (clients check only that it is a string). */
const MODEL = 'scripted-model';

/** Per client: the arguments and environment of one turn against a scripted model. */
const AGENT_TURNS: Partial<Record<RealClientName, (prompt: string, model: ScriptedModel) => { args: string[]; env: Record<string, string> }>> = {
  // ENABLE_TOOL_SEARCH=false: with tool search on, `-p` offers the model a search tool instead of MCP tools.
  claude: (prompt, model) => ({
    args: ['-p', prompt, '--output-format', 'json', '--allowedTools', 'mcp__terminal-shepherd'],
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-scripted', ENABLE_TOOL_SEARCH: 'false' },
  }),
  // A provider of its own with Anthropic's protocol (bundled in opencode) and the scripted model.
  opencode: (prompt, model) => ({
    args: ['run', prompt],
    env: {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        provider: { scripted: { npm: '@ai-sdk/anthropic', name: 'Scripted', options: { baseURL: `${model.url}/v1`, apiKey: 'sk-scripted' }, models: { [MODEL]: { name: 'Scripted model', tool_call: true } } } },
        model: `scripted/${MODEL}`,
      }),
    },
  }),
  // The Gemini API at the scripted URL with an API key; --yolo runs tools without asking. Its settings
  // must name API-key sign-in (security.auth.selectedType "gemini-api-key"), as a person picks it once.
  gemini: (prompt, model) => ({
    args: ['-p', prompt, '--yolo', '-m', MODEL],
    env: { GEMINI_API_KEY: 'sk-scripted', GOOGLE_GEMINI_BASE_URL: model.url },
  }),
  // BYOK with Anthropic's protocol, offline: no GitHub sign-in. --allow-all-tools runs tools unasked
  // (prompt mode has nobody to ask); the folder's .mcp.json loads only where it is trusted (a test trusts it itself).
  copilot: (prompt, model) => ({
    args: ['-p', prompt, '--allow-all-tools', '--disable-client-telemetry', '--no-auto-update'],
    env: { COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_TYPE: 'anthropic', COPILOT_PROVIDER_BASE_URL: model.url, COPILOT_PROVIDER_API_KEY: 'sk-scripted', COPILOT_MODEL: MODEL },
  }),
  // A model provider on the Responses API; Codex asks before a tool that may change things, and exec has nobody to ask.
  codex: (prompt, model) => ({
    args: [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-c', `model="${MODEL}"`,
      '-c', 'model_provider="scripted"',
      '-c', `model_providers.scripted={ name = "Scripted", base_url = "${model.url}/v1", wire_api = "responses" }`,
      prompt,
    ],
    env: {},
  }),
};

/** What a client forwarded of a terminal_run result: the structured content's JSON (maybe after a preamble of its own), or the text content. */
export function readForwarded(sent: string): { form: string; status?: string; exitCode?: number; output?: string; pid: number } {
  // Gemini CLI wraps what a tool returned in tags that mark it as not to be obeyed.
  const wrapped = /^<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>$/.exec(sent.trim());
  const text = wrapped ? wrapped[1]! : sent;
  const form = (kind: string): string => (wrapped ? `${kind} in <untrusted_context>` : kind);
  const json = /\{[\s\S]*\}$/.exec(text.trim());
  if (json) {
    const r = JSON.parse(json[0]) as { status: string; exitCode: number; output: string; pid: number };
    return { form: form('structured'), status: r.status, exitCode: r.exitCode, output: r.output, pid: r.pid };
  }
  // completed · exit code 7 · 147 ms · terminal "x" (shell pid 1, strategy vscode) ... --- output --- ...
  const head = /^(\w+) · exit code (\d+) · .*shell pid (\d+)/.exec(text);
  const output = text.split('\n--- output ---\n')[1];
  return { form: form('text'), status: head?.[1], exitCode: head ? Number(head[2]) : undefined, output, pid: Number(head?.[3]) };
}
