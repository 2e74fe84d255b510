import assert from 'node:assert/strict';
import { agentEnv, agentName, DEFAULT_AGENT, historyFreeLine } from '../../../extension/src/core/terminals/agentMarks';

describe('agent marks', () => {
  it('names the client as CLIs expect AI_AGENT, else terminal-shepherd', () => {
    const names: Array<[string | undefined, string]> = [
      ['claude-code', 'claude-code'],
      ['Claude Code', 'claude-code'],
      ['claude-ai', 'claude'],
      ['codex-mcp-client', 'codex'],
      ['gemini-cli-mcp-client', 'gemini-cli'],
      ['Visual Studio Code', 'copilot'],
      ['cursor-vscode', 'cursor'],
      ['My Agent 2.0', 'my-agent-2-0'],
      ['', DEFAULT_AGENT],
      [undefined, DEFAULT_AGENT],
      ['!!!', DEFAULT_AGENT],
    ];
    for (const [client, agent] of names) assert.equal(agentName(client), agent, String(client));
  });

  it('marks the environment, and asks the shell scripts to keep history clean only when the setting says so', () => {
    assert.deepEqual(agentEnv({ agent: 'codex', preventShellHistory: true }), { AI_AGENT: 'codex', TERMINAL_SHEPHERD: '1', VSCODE_PREVENT_SHELL_HISTORY: '1' });
    assert.deepEqual(agentEnv({ agent: 'codex', preventShellHistory: false }), { AI_AGENT: 'codex', TERMINAL_SHEPHERD: '1' });
    // The ledger's mark, inherited by every process started there (ledger/processMarks.ts).
    assert.deepEqual(agentEnv({ agent: 'codex', preventShellHistory: false, ledger: { session: 's1', terminal: 'build' } }), {
      AI_AGENT: 'codex',
      TERMINAL_SHEPHERD: '1',
      TERMINAL_SHEPHERD_SESSION: 's1',
      TERMINAL_SHEPHERD_TERMINAL: 'build',
    });
  });

  it('types bash and zsh lines with one leading space; other shells and the setting off as they are', () => {
    assert.equal(historyFreeLine('bash', 'make', true), ' make');
    assert.equal(historyFreeLine('zsh', ' make', true), ' make');
    assert.equal(historyFreeLine('fish', 'make', true), 'make');
    assert.equal(historyFreeLine('pwsh', 'make', true), 'make');
    assert.equal(historyFreeLine('bash', 'make', false), 'make');
  });
});
