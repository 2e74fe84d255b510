/**
 * Why a start failed on a taken port (portConflictMessage), one holder kind at a time: who holds
 * it, whose session and which terminal started it, and the next step that can work for that kind
 * (kill_process only for the ledger's processes; restart: true never, since it stops only the
 * same command's run). Through the terminal service with a scripted OS: devServerRuns.test.ts.
 */
import assert from 'node:assert/strict';
import type { PortHolder } from '../../../common/src/protocol';
import { portConflictMessage } from '../../../extension/src/core/servers/serverReport';

const SESSION_A = { client: 'claude-code', id: 'sess-a', from: 'env.CLAUDE_CODE_SESSION_ID' };
const CLAUDE = { client: 'claude-code', pid: 812, command: 'node' };
const vite = { pid: 4242, name: 'node', commandLine: 'node node_modules/.bin/vite' };
const message = (holder: PortHolder): string => portConflictMessage({ port: 5173, holders: [holder] });
const NOT_YOURS = "If that is not your session, the server is that session's: use it or run this on another port, and do not stop it. If it is yours, ";

describe('a port a start failed on: who holds it, and the next step', () => {
  it("this window's terminal, no session named: the terminal, and kill_process to stop it", () => {
    assert.equal(
      message({ ...vite, owner: 'ledger', terminal: 'web' }),
      'Port 5173 is already in use. node (pid 4242: node node_modules/.bin/vite) holds it, started in Terminal Shepherd terminal "web". ' +
        'Use it, or stop it with kill_process {pid: 4242} (identity-checked, with its tree) and retry.',
    );
  });

  it("this window's terminal, a session's run: that session named, told not to stop another session's server", () => {
    assert.equal(
      message({ ...vite, owner: 'ledger', terminal: 'web', agentSession: SESSION_A }),
      'Port 5173 is already in use. node (pid 4242: node node_modules/.bin/vite) holds it, started in Terminal Shepherd terminal "web" by claude-code session sess-a. ' +
        `${NOT_YOURS}use it, or stop it with kill_process {pid: 4242} (identity-checked, with its tree) and retry.`,
    );
  });

  it("a client's own tools: that client and session, no terminal, and why restart: true cannot stop it", () => {
    const text = message({ ...vite, owner: 'client', clientTools: CLAUDE, agentSession: SESSION_A });
    assert.equal(
      text,
      "Port 5173 is already in use. node (pid 4242: node node_modules/.bin/vite) holds it, started outside Terminal Shepherd's terminals by claude-code's own tools (client pid 812, node), claude-code session sess-a. " +
        `${NOT_YOURS}use it, or end it with kill_process {pid: 4242} (identity-checked, with its tree) and retry. ` +
        "terminal_run with restart: true cannot stop it: it is not a managed terminal's.",
    );
    assert.doesNotMatch(text, /Terminal Shepherd terminal|own tools\)"/, 'no terminal named for it');
    assert.match(message({ ...vite, owner: 'client', clientTools: CLAUDE }), /by claude-code's own tools \(client pid 812, node\)\. If that is not your session/, 'the client alone owns it when it named no session');
  });

  it('an orphan: of an earlier window (its terminal and session) or of a client that is gone; kill_process or kill_orphans', () => {
    assert.equal(
      message({ ...vite, owner: 'orphan', terminal: 'web', agentSession: SESSION_A }),
      'Port 5173 is already in use. node (pid 4242: node node_modules/.bin/vite) holds it, left running by an earlier VS Code window (terminal "web", started by claude-code session sess-a). ' +
        'Nothing runs it any more: use it, or end it with kill_process {pid: 4242} (or kill_orphans) and retry.',
    );
    assert.equal(
      message({ ...vite, owner: 'orphan', clientTools: CLAUDE }),
      "Port 5173 is already in use. node (pid 4242: node node_modules/.bin/vite) holds it, left running by claude-code's own tools (client pid 812, node) after that client exited or disconnected. " +
        'Nothing runs it any more: use it, or end it with kill_process {pid: 4242} (or kill_orphans) and retry.',
    );
  });

  it('another program: never killed, no kill_process offered; a holder the OS hides: another port', () => {
    const foreign = message({ ...vite, owner: 'foreign' });
    assert.match(foreign, /holds it; Terminal Shepherd did not start it and will not kill it\. Stop it yourself \(or ask the user to\), or run this on another port\.$/);
    assert.doesNotMatch(foreign, /kill_process|restart/);
    assert.match(portConflictMessage({ port: 5173, holders: [] }), /^Port 5173 is taken, by a process this user cannot see/);
  });

  it('no kind offers restart: true (it stops only the same command in the same folder, which never twice already answers)', () => {
    for (const owner of ['ledger', 'orphan', 'foreign'] as const) assert.doesNotMatch(message({ ...vite, owner, terminal: 'web' }), /restart: true/);
  });
});
