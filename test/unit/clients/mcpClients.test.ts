/**
 * Connect an MCP Client's writers on each client's own file format (test/fixtures/clients/): the
 * entry lands where the client reads it, in its format, and every other server, setting, comment
 * and indentation stays; a second run changes nothing; an unreadable file is refused.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { ConfigEditError } from '../../../extension/src/clients/configEdits';
import { MCP_CLIENTS, clientSpec, detectClient, genericJson, type ClientContext, type ClientId, type Scope } from '../../../extension/src/clients/mcpClients';

const fixture = (name: string): string => readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'clients', name), 'utf8');
const home = '/home/ana';
const ctx: ClientContext = {
  home,
  platform: 'linux',
  env: {},
  launcher: '/home/ana/.terminal-shepherd/bin/terminal-shepherd-mcp',
  workspaceFolder: '/home/ana/src/shop',
  globalStorage: '/home/ana/.config/Code/User/globalStorage',
  version: '0.2.0',
};
const target = (id: ClientId, scope: Scope, c: ClientContext = ctx) => clientSpec(id).scopes[scope]!(c);
const json = (text: string): Record<string, any> => parse(text) as Record<string, any>;

describe('MCP client configurations (Connect an MCP Client)', () => {
  it('names every client of the issue, each with its documented files per scope', () => {
    assert.deepEqual(MCP_CLIENTS.map((c) => c.label), ['Claude Code', 'VS Code agents and Copilot CLI', 'Codex', 'Gemini CLI', 'Cursor', 'Cline', 'Continue', 'opencode']);
    const files = Object.fromEntries(MCP_CLIENTS.map((c) => [c.id, Object.fromEntries(Object.keys(c.scopes).map((s) => [s, target(c.id, s as Scope).file]))]));
    assert.deepEqual(files, {
      claude: { user: '/home/ana/.claude.json', project: '/home/ana/src/shop/.mcp.json' },
      copilot: { user: '/home/ana/.copilot/mcp-config.json', project: '/home/ana/src/shop/.mcp.json' },
      codex: { user: '/home/ana/.codex/config.toml' },
      gemini: { user: '/home/ana/.gemini/settings.json', project: '/home/ana/src/shop/.gemini/settings.json' },
      cursor: { user: '/home/ana/.cursor/mcp.json', project: '/home/ana/src/shop/.cursor/mcp.json' },
      cline: { user: '/home/ana/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json' },
      continue: { user: '/home/ana/.continue/mcpServers/terminal-shepherd.yaml', project: '/home/ana/src/shop/.continue/mcpServers/terminal-shepherd.yaml' },
      opencode: { user: '/home/ana/.config/opencode/opencode.json', project: '/home/ana/src/shop/opencode.json' },
    });
    assert.equal(target('opencode', 'user', { ...ctx, env: { XDG_CONFIG_HOME: '/xdg' } }).file, '/xdg/opencode/opencode.json');
    assert.equal(target('codex', 'user', { ...ctx, env: { CODEX_HOME: '/codex-home' } }).file, '/codex-home/config.toml');
    assert.equal(target('copilot', 'user', { ...ctx, env: { COPILOT_HOME: '/copilot-home' } }).file, '/copilot-home/mcp-config.json');
  });

  it("VS Code agents and the Copilot CLI: ~/.copilot/mcp-config.json gets the entry `copilot mcp add` writes, the other servers kept; .mcp.json is the one Claude Code reads", () => {
    const before = fixture('copilot-mcp-config.json');
    const after = target('copilot', 'user').edit(before);
    const parsed = json(after);
    assert.deepEqual(parsed.mcpServers['terminal-shepherd'], { type: 'local', command: ctx.launcher, args: [], tools: ['*'] });
    assert.deepEqual({ ...parsed.mcpServers, 'terminal-shepherd': undefined }, { ...json(before).mcpServers, 'terminal-shepherd': undefined });
    assert.equal(target('copilot', 'user').edit(after), after, 'a second run changes nothing');
    // One entry for both: connecting Claude Code and Copilot to a project writes the same .mcp.json.
    const project = target('copilot', 'project').edit(fixture('mcp.json'));
    assert.equal(target('claude', 'project').edit(project), project);
    assert.deepEqual(json(project).mcpServers['terminal-shepherd'], { type: 'stdio', command: '${HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp', args: [], env: {} });
  });

  it("Claude Code's ~/.claude.json: the entry `claude mcp add --scope user` writes, every other key kept", () => {
    const before = fixture('claude.json');
    const after = target('claude', 'user').edit(before);
    const parsed = json(after);
    assert.deepEqual(parsed.mcpServers['terminal-shepherd'], { type: 'stdio', command: ctx.launcher, args: [], env: {} });
    const { mcpServers, ...rest } = parsed;
    const { mcpServers: oldServers, ...oldRest } = json(before);
    assert.deepEqual(rest, oldRest);
    assert.deepEqual(mcpServers.playwright, oldServers.playwright);
    assert.equal(target('claude', 'user').edit(after), after, 'a second run changes nothing');
    assert.ok(after.startsWith('{\n  "numStartups": 12,\n'), 'its two-space indentation stays');
  });

  it("project files name the launcher through each client's home variable, so they work for everyone who clones the project", () => {
    assert.equal(json(target('claude', 'project').edit(fixture('mcp.json'))).mcpServers['terminal-shepherd'].command, '${HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp');
    assert.equal(json(target('gemini', 'project').edit('')).mcpServers['terminal-shepherd'].command, '${HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp');
    assert.deepEqual(json(target('cursor', 'project').edit('')).mcpServers['terminal-shepherd'], { command: '${userHome}/.terminal-shepherd/bin/terminal-shepherd-mcp', args: ['--workspace', '${workspaceFolder}'] });
    assert.deepEqual(json(target('opencode', 'project').edit('')).mcp['terminal-shepherd'].command, ['{env:HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp']);
    const elsewhere = { ...ctx, launcher: '/opt/shepherd/bin/terminal-shepherd-mcp' };
    assert.equal(json(target('claude', 'project', elsewhere).edit('')).mcpServers['terminal-shepherd'].command, elsewhere.launcher, 'a launcher outside the home stays absolute');
    assert.equal(json(target('claude', 'project').edit(fixture('mcp.json'))).mcpServers.postgres.args[2], '${DATABASE_URL}', 'the other server is untouched');
  });

  it("Gemini CLI's settings.json with comments and tabs: comments, tabs and the other server stay", () => {
    const after = target('gemini', 'user').edit(fixture('gemini-settings.json'));
    assert.ok(after.includes('\t// Gemini CLI settings (comments are allowed here)'), after);
    assert.ok(after.includes('\t\t"terminal-shepherd": {'), `tab indentation:\n${after}`);
    const parsed = json(after);
    assert.deepEqual(parsed.mcpServers['terminal-shepherd'], { command: ctx.launcher, args: [] });
    assert.equal(parsed.mcpServers.github.httpUrl, 'https://api.githubcopilot.com/mcp/');
    assert.equal(parsed.ui.theme, 'GitHub');
  });

  it("Cursor's mcp.json, Cline's settings and opencode's config: merged under their own keys", () => {
    const cursor = json(target('cursor', 'user').edit(fixture('cursor-mcp.json')));
    assert.deepEqual(Object.keys(cursor.mcpServers), ['linear', 'sqlite', 'terminal-shepherd']);
    assert.deepEqual(cursor.mcpServers['terminal-shepherd'].args, ['--workspace', '${workspaceFolder}']);
    const cline = json(target('cline', 'user').edit(fixture('cline_mcp_settings.json')));
    assert.deepEqual(cline.mcpServers['terminal-shepherd'], { command: ctx.launcher, args: [], disabled: false });
    assert.deepEqual(cline.mcpServers['brave-search'].autoApprove, ['brave_web_search']);
    const opencode = json(target('opencode', 'user').edit(fixture('opencode.json')));
    assert.deepEqual(opencode.mcp['terminal-shepherd'], { type: 'local', command: [ctx.launcher], enabled: true });
    assert.equal(opencode.mcp.sentry.url, 'https://mcp.sentry.dev/mcp');
    assert.equal(opencode.permission.bash, 'ask');
  });

  it("Codex's config.toml: an old entry and its sub-table replaced in place, comments, other tables and profiles kept", () => {
    const after = target('codex', 'user').edit(fixture('codex-config.toml'));
    assert.equal(
      after,
      [
        '# Codex settings (~/.codex/config.toml)',
        'model = "gpt-5.3-codex"',
        'model_reasoning_effort = "high"',
        'approval_policy = "on-request"',
        '',
        '[projects."/home/ana/src/shop"]',
        'trust_level = "trusted"',
        '',
        '[mcp_servers.context7]',
        'command = "npx"',
        'args = ["-y", "@upstash/context7-mcp"]',
        '',
        '[mcp_servers.context7.env]',
        'CONTEXT7_TOKEN = "ctx7-made-up"',
        '',
        '# Terminal Shepherd, added by hand with an old path',
        '[mcp_servers.terminal-shepherd]',
        `command = "${ctx.launcher}"`,
        'args = []',
        'tool_timeout_sec = 300',
        '',
        '[profiles.fast]',
        'model = "gpt-5.3-codex-mini"',
        '',
      ].join('\n'),
    );
    assert.equal(target('codex', 'user').edit(after), after, 'a second run changes nothing');
    assert.equal(target('codex', 'user').edit(''), `[mcp_servers.terminal-shepherd]\ncommand = "${ctx.launcher}"\nargs = []\ntool_timeout_sec = 300\n`);
  });

  it('Continue: a block file of its own in .continue/mcpServers, in YAML', () => {
    assert.equal(
      target('continue', 'project').edit('anything'),
      [
        '# Terminal Shepherd\'s MCP server, written by its "Connect an MCP Client" command; run it again to update this file.',
        'name: "Terminal Shepherd"',
        'version: "0.2.0"',
        'schema: v1',
        'mcpServers:',
        '  - name: "terminal-shepherd"',
        `    command: "${ctx.launcher}"`,
        '    args: []',
        '',
      ].join('\n'),
    );
  });

  it('refuses a file it cannot read as its format, rather than overwrite it', () => {
    assert.throws(() => target('claude', 'user').edit('{ "mcpServers": { "a": 1 '), (e: unknown) => e instanceof ConfigEditError && /not valid JSON \(.* on line 1\)/.test(e.message));
    assert.throws(() => target('claude', 'user').edit('[1, 2]'), /top level is not a JSON object/);
    assert.throws(() => target('opencode', 'user').edit('{ "mcp": ["x"] }'), /"mcp" in it is not an object/);
  });

  it('detects clients by command on PATH, extension or home folder; the generic JSON names the launcher', () => {
    const probe = (onPath: string[], files: string[], extensions: string[]) => ({
      onPath: (c: string) => onPath.includes(c),
      exists: (f: string) => files.includes(f),
      extensionInstalled: (id: string) => extensions.includes(id),
    });
    assert.equal(detectClient(clientSpec('claude'), home, probe(['claude'], [], [])), '`claude` on PATH');
    assert.equal(detectClient(clientSpec('gemini'), home, probe([], ['/home/ana/.gemini'], [])), '~/.gemini exists');
    assert.equal(detectClient(clientSpec('cline'), home, probe([], [], ['saoudrizwan.claude-dev'])), 'extension saoudrizwan.claude-dev installed');
    assert.equal(detectClient(clientSpec('codex'), home, probe([], [], [])), undefined);
    assert.equal(detectClient(clientSpec('copilot'), home, probe([], ['/home/ana/.copilot'], [])), '~/.copilot exists');
    assert.deepEqual(JSON.parse(genericJson(ctx)), { mcpServers: { 'terminal-shepherd': { command: ctx.launcher, args: [] } } });
  });
});
