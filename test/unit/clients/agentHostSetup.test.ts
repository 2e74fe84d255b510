/**
 * agentHostSetupStep and agentHostEntries: a person whose chats run in VS Code's agent host (a
 * setting turns a harness on) and whose configuration for it names no Terminal Shepherd gets the
 * one step, Connect for the user's ~/.copilot/mcp-config.json; anyone else gets nothing. The files
 * are read from a temp home and workspace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentHostEntries, agentHostSetupStep, type AgentHostSettings } from '../../../extension/src/clients/agentHostSetup';
import type { ClientContext } from '../../../extension/src/clients/mcpClients';
import { TempDirs } from '../../support/tempDirs';

const off: AgentHostSettings = { defaultToCopilotHarness: false, preferCopilotHarness: undefined, aiFeaturesDisabled: false };

describe('agentHostSetupStep: what the agent host needs to find Terminal Shepherd', () => {
  it('no agent-host harness on (VS Code 1.139’s defaults, or settings never read): nothing to do', () => {
    const step = agentHostSetupStep(off, { user: false, project: false });
    assert.equal(step.kind, 'none');
    assert.match(step.kind === 'none' ? step.reason : '', /no agent-host harness/);
    assert.equal(agentHostSetupStep({ ...off, defaultToCopilotHarness: 'true' }, {}).kind, 'none', 'only true turns it on');
  });

  it('a harness on and no entry in either file: Connect, user scope, the message naming the setting and the file', () => {
    for (const [key, name] of [
      ['defaultToCopilotHarness', 'chat.defaultToCopilotHarness'],
      ['preferCopilotHarness', 'chat.editor.preferCopilotHarness'],
    ] as const) {
      const step = agentHostSetupStep({ ...off, [key]: true }, { user: false, project: false });
      assert.equal(step.kind, 'connect', key);
      assert.equal(step.kind === 'connect' ? step.scope : undefined, 'user');
      assert.ok(step.kind === 'connect' && step.message.includes(`(${name})`) && step.message.includes('~/.copilot/mcp-config.json'), key);
    }
  });

  it('an entry in either file, or chat turned off: nothing to do', () => {
    const on = { ...off, defaultToCopilotHarness: true };
    assert.match(JSON.stringify(agentHostSetupStep(on, { user: false, project: true })), /finds Terminal Shepherd in the project configuration/);
    assert.match(JSON.stringify(agentHostSetupStep(on, { user: true })), /in the user configuration/);
    assert.equal(agentHostSetupStep({ ...on, aiFeaturesDisabled: true }, {}).kind, 'none');
  });
});

describe('agentHostEntries: whether the agent host’s files name the server', () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  function context(workspace?: string, env: Record<string, string> = {}): ClientContext {
    return { home: dirs.make('home-'), platform: 'linux', env, launcher: '/x/launcher', version: '1.0.0', ...(workspace ? { workspaceFolder: workspace } : {}) };
  }

  it('reads ~/.copilot/mcp-config.json (COPILOT_HOME moves it) and the workspace’s .mcp.json; missing, other servers only or unreadable count as none', async () => {
    const workspace = dirs.make('ws-');
    const ctx = context(workspace);
    assert.deepEqual(await agentHostEntries(ctx), { user: false, project: false });
    writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    mkdirSync(path.join(ctx.home, '.copilot'));
    writeFileSync(path.join(ctx.home, '.copilot', 'mcp-config.json'), '{ "mcpServers": { "terminal-shepherd": ');
    assert.deepEqual(await agentHostEntries(ctx), { user: false, project: false });
    writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { 'terminal-shepherd': { command: '${HOME}/x' } } }));
    assert.deepEqual(await agentHostEntries(ctx), { user: false, project: true });

    const copilotHome = dirs.make('copilot-home-');
    writeFileSync(path.join(copilotHome, 'mcp-config.json'), JSON.stringify({ mcpServers: { 'terminal-shepherd': { type: 'local', command: '/x' } } }));
    assert.deepEqual(await agentHostEntries({ ...context(undefined, { COPILOT_HOME: copilotHome }) }), { user: true }, 'no folder: the user’s file only');
  });
});
