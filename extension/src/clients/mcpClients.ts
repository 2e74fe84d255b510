/**
 * The MCP clients "Connect an MCP Client" knows: where each keeps its MCP servers (its own
 * documented file, per scope), Terminal Shepherd's entry in that client's own format, how to tell
 * whether the person uses it, and how they check the connection. Every entry starts the stable
 * launcher (launcher.ts), so it survives extension updates; project files name the launcher
 * through the client's own home-folder variable where it has one, so they work for every person
 * who clones the project.
 */
import path from 'node:path';
import { setJsonValue, setTomlTable, yamlServerBlock } from './configEdits';

export type ClientId = 'claude' | 'copilot' | 'codex' | 'gemini' | 'cursor' | 'cline' | 'continue' | 'opencode';
export type Scope = 'user' | 'project';

/** The server's name in every client's configuration. */
export const SERVER_KEY = 'terminal-shepherd';

export interface ClientContext {
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** XDG_CONFIG_HOME and the like, as the clients read them. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The launcher's absolute path. */
  readonly launcher: string;
  readonly workspaceFolder?: string;
  /** VS Code's `User/globalStorage` folder (where Cline keeps its settings). */
  readonly globalStorage?: string;
  readonly version: string;
}

export interface ConfigTarget {
  readonly file: string;
  /** The file's new text from its current one ('' when it does not exist). Throws ConfigEditError. */
  edit(text: string): string;
  /** Terminal Shepherd's entry alone, in the file's format (for adding it by hand). */
  readonly entry: string;
}

export interface McpClientSpec {
  readonly id: ClientId;
  readonly label: string;
  /** Where its configuration goes per scope; a scope it lacks is absent. */
  readonly scopes: Partial<Record<Scope, (ctx: ClientContext) => ConfigTarget>>;
  /** Signs that the person uses it: a command on PATH, a folder in the home, a VS Code extension. */
  readonly detect: { readonly commands?: readonly string[]; readonly homePaths?: readonly string[]; readonly extensions?: readonly string[] };
  /** How to see it connected, said after writing. */
  readonly check: string;
  /** What else the person must know (trust, approval), said after writing. */
  readonly note?: string;
}

/** The launcher as `<variable><rest of the path>` when it lives under the home folder; else its absolute path. */
function launcherVia(ctx: ClientContext, homeVariable: string): string {
  const relative = path.relative(ctx.home, ctx.launcher);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return ctx.launcher;
  const sep = ctx.platform === 'win32' ? '\\' : '/';
  return `${homeVariable}${sep}${relative.split(path.sep).join(sep)}`;
}

const homeVar = (ctx: ClientContext, posix: string, windows: string): string => launcherVia(ctx, ctx.platform === 'win32' ? windows : posix);

function requireWorkspace(ctx: ClientContext): string {
  if (!ctx.workspaceFolder) throw new Error('project scope needs an open folder');
  return ctx.workspaceFolder;
}

/** A JSON file whose `keyPath` object maps server names to entries. */
function jsonTarget(file: string, keyPath: readonly string[], value: Record<string, unknown>): ConfigTarget {
  return {
    file,
    edit: (text) => setJsonValue(text, [...keyPath, SERVER_KEY], value),
    entry: JSON.stringify({ [keyPath[keyPath.length - 1]!]: { [SERVER_KEY]: value } }, null, 2),
  };
}

function xdgConfig(ctx: ClientContext): string {
  return ctx.env.XDG_CONFIG_HOME || path.join(ctx.home, '.config');
}

/** The project's .mcp.json entry: Claude Code, the Copilot CLI and VS Code's agent host read the same file (and expand ${HOME}). */
function projectMcpJson(ctx: ClientContext): ConfigTarget {
  return jsonTarget(path.join(requireWorkspace(ctx), '.mcp.json'), ['mcpServers'], { type: 'stdio', command: homeVar(ctx, '${HOME}', '${USERPROFILE}'), args: [], env: {} });
}

export const MCP_CLIENTS: readonly McpClientSpec[] = [
  {
    id: 'claude',
    label: 'Claude Code',
    scopes: {
      // `claude mcp add --scope user` writes the same entry there.
      user: (ctx) => jsonTarget(path.join(ctx.home, '.claude.json'), ['mcpServers'], { type: 'stdio', command: ctx.launcher, args: [], env: {} }),
      project: projectMcpJson,
    },
    detect: { commands: ['claude'], homePaths: ['.claude.json', '.claude'] },
    check: 'claude mcp list',
    note: 'Claude Code asks each person to approve a project\'s .mcp.json servers once ("Pending approval" in claude mcp list until then).',
  },
  {
    // VS Code's agent host (its Copilot harness on @github/copilot-sdk) and the Copilot CLI read the
    // same files; servers from an extension's provider do not reach the agent host.
    id: 'copilot',
    label: 'VS Code agents and Copilot CLI',
    scopes: {
      // `copilot mcp add` writes this entry there (COPILOT_HOME moves the folder).
      user: (ctx) => jsonTarget(path.join(ctx.env.COPILOT_HOME || path.join(ctx.home, '.copilot'), 'mcp-config.json'), ['mcpServers'], { type: 'local', command: ctx.launcher, args: [], tools: ['*'] }),
      project: projectMcpJson,
    },
    detect: { commands: ['copilot'], homePaths: ['.copilot'] },
    check: 'copilot mcp list',
    note: 'The Copilot CLI loads a project\'s .mcp.json only in a folder you trust (it asks when you start it there).',
  },
  {
    id: 'codex',
    label: 'Codex',
    scopes: {
      user: (ctx) => {
        // Codex ends a tool call after tool_timeout_sec (60 by default): a run waits up to its own timeout (120 s by default).
        const entries = { command: ctx.launcher, args: [], tool_timeout_sec: 300 };
        return {
          file: path.join(ctx.env.CODEX_HOME || path.join(ctx.home, '.codex'), 'config.toml'),
          edit: (text) => setTomlTable(text, ['mcp_servers', SERVER_KEY], entries),
          entry: setTomlTable('', ['mcp_servers', SERVER_KEY], entries).trimEnd(),
        };
      },
    },
    detect: { commands: ['codex'], homePaths: ['.codex'] },
    check: 'codex mcp list',
  },
  {
    id: 'gemini',
    label: 'Gemini CLI',
    scopes: {
      user: (ctx) => jsonTarget(path.join(ctx.home, '.gemini', 'settings.json'), ['mcpServers'], { command: ctx.launcher, args: [] }),
      project: (ctx) => jsonTarget(path.join(requireWorkspace(ctx), '.gemini', 'settings.json'), ['mcpServers'], { command: homeVar(ctx, '${HOME}', '${USERPROFILE}'), args: [] }),
    },
    detect: { commands: ['gemini'], homePaths: ['.gemini'] },
    check: 'gemini mcp list',
    note: 'Gemini CLI starts MCP servers only in folders you trust (it asks when you start it in a new folder; "Disabled" in gemini mcp list until then).',
  },
  {
    id: 'cursor',
    label: 'Cursor',
    scopes: {
      // Cursor starts user-level servers outside the project: ${workspaceFolder} tells the server which one.
      user: (ctx) => jsonTarget(path.join(ctx.home, '.cursor', 'mcp.json'), ['mcpServers'], { command: ctx.launcher, args: ['--workspace', '${workspaceFolder}'] }),
      project: (ctx) => jsonTarget(path.join(requireWorkspace(ctx), '.cursor', 'mcp.json'), ['mcpServers'], { command: homeVar(ctx, '${userHome}', '${userHome}'), args: ['--workspace', '${workspaceFolder}'] }),
    },
    detect: { commands: ['cursor'], homePaths: ['.cursor'] },
    check: 'Cursor Settings → MCP (Terminal Shepherd with its tools)',
    note: 'Terminal Shepherd must also be installed in Cursor and the folder open there: the tools run in that window\'s terminals.',
  },
  {
    id: 'cline',
    label: 'Cline',
    scopes: {
      // Cline starts servers from this window's extension host: the server finds this window by that.
      user: (ctx) => {
        if (!ctx.globalStorage) throw new Error("Cline's settings live in VS Code's global storage, which this window does not have");
        return jsonTarget(path.join(ctx.globalStorage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), ['mcpServers'], { command: ctx.launcher, args: [], disabled: false });
      },
    },
    detect: { extensions: ['saoudrizwan.claude-dev'] },
    check: 'Cline → MCP Servers → Installed (terminal-shepherd, green)',
  },
  {
    id: 'continue',
    label: 'Continue',
    scopes: {
      user: (ctx) => continueBlock(path.join(ctx.home, '.continue', 'mcpServers', `${SERVER_KEY}.yaml`), ctx),
      project: (ctx) => continueBlock(path.join(requireWorkspace(ctx), '.continue', 'mcpServers', `${SERVER_KEY}.yaml`), ctx),
    },
    detect: { extensions: ['continue.continue'], homePaths: ['.continue'] },
    check: 'Continue → agent mode → Tools (terminal-shepherd)',
  },
  {
    id: 'opencode',
    label: 'opencode',
    scopes: {
      user: (ctx) => jsonTarget(path.join(xdgConfig(ctx), 'opencode', 'opencode.json'), ['mcp'], { type: 'local', command: [ctx.launcher], enabled: true }),
      project: (ctx) => jsonTarget(path.join(requireWorkspace(ctx), 'opencode.json'), ['mcp'], { type: 'local', command: [homeVar(ctx, '{env:HOME}', '{env:USERPROFILE}')], enabled: true }),
    },
    detect: { commands: ['opencode'], homePaths: [path.join('.config', 'opencode')] },
    check: 'opencode mcp list',
  },
];

function continueBlock(file: string, ctx: ClientContext): ConfigTarget {
  const text = yamlServerBlock('Terminal Shepherd', ctx.version, { name: SERVER_KEY, command: ctx.launcher, args: [] });
  return { file, edit: () => text, entry: text };
}

/** Any other client: the usual mcpServers JSON, for its own configuration file. */
export function genericJson(ctx: ClientContext): string {
  return JSON.stringify({ mcpServers: { [SERVER_KEY]: { command: ctx.launcher, args: [] } } }, null, 2);
}

export function clientSpec(id: ClientId): McpClientSpec {
  const spec = MCP_CLIENTS.find((c) => c.id === id);
  if (!spec) throw new Error(`unknown MCP client ${id}`);
  return spec;
}

export interface DetectionProbe {
  onPath(command: string): boolean;
  exists(file: string): boolean;
  extensionInstalled(id: string): boolean;
}

/** What shows the person uses a client, or undefined when nothing does. */
export function detectClient(spec: McpClientSpec, home: string, probe: DetectionProbe): string | undefined {
  const command = spec.detect.commands?.find((c) => probe.onPath(c));
  if (command) return `\`${command}\` on PATH`;
  const extension = spec.detect.extensions?.find((id) => probe.extensionInstalled(id));
  if (extension) return `extension ${extension} installed`;
  const found = spec.detect.homePaths?.find((p) => probe.exists(path.join(home, p)));
  return found ? `~/${found.split(path.sep).join('/')} exists` : undefined;
}
