/**
 * Planning and writing a client's file on a real disk: new files and their modes, a symlinked
 * dotfile written through its link, nothing to write when the entry is there, a file changed
 * between the diff and the confirmation left alone, outside-the-workspace files flagged.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigChangedError, applyConnect, isInside, planConnect } from '../../../extension/src/clients/connect';
import { clientSpec, type ClientContext } from '../../../extension/src/clients/mcpClients';
import { TempDirs } from '../../support/tempDirs';

const dirs = new TempDirs();
after(() => dirs.cleanup());

function context(): ClientContext {
  const home = dirs.make('tshep-home-');
  const workspaceFolder = path.join(home, 'src', 'shop');
  mkdirSync(workspaceFolder, { recursive: true });
  return { home, platform: 'linux', env: {}, launcher: path.join(home, '.terminal-shepherd', 'bin', 'terminal-shepherd-mcp'), workspaceFolder, version: '0.2.0' };
}

describe('connecting a client on disk', () => {
  it('a new user file (0600, folders made) and a new project file (0644); a second plan has nothing to write', async () => {
    const ctx = context();
    const user = await planConnect(clientSpec('gemini'), 'user', ctx);
    assert.deepEqual({ before: user.before, outside: user.outsideWorkspace, unchanged: user.unchanged }, { before: undefined, outside: true, unchanged: false });
    await applyConnect(user);
    assert.equal(statSync(user.file).mode & 0o777, 0o600);
    assert.equal((await planConnect(clientSpec('gemini'), 'user', ctx)).unchanged, true);
    const project = await planConnect(clientSpec('claude'), 'project', ctx);
    assert.equal(project.outsideWorkspace, false);
    await applyConnect(project);
    assert.equal(statSync(project.file).mode & 0o777, 0o644);
    assert.equal(JSON.parse(readFileSync(path.join(ctx.workspaceFolder!, '.mcp.json'), 'utf8')).mcpServers['terminal-shepherd'].command, '${HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp');
  });

  it("VS Code agents and Copilot CLI: ~/.copilot/mcp-config.json under this HOME (0600), merged into the servers already there", async () => {
    const ctx = context();
    const file = path.join(ctx.home, '.copilot', 'mcp-config.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ mcpServers: { other: { tools: ['*'], type: 'local', command: 'other-mcp', args: ['--x'] } } }, null, 2), { mode: 0o600 });
    const plan = await planConnect(clientSpec('copilot'), 'user', ctx);
    assert.equal(plan.file, file);
    assert.equal(plan.outsideWorkspace, true);
    await applyConnect(plan);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(written.mcpServers), ['other', 'terminal-shepherd']);
    assert.equal(written.mcpServers['terminal-shepherd'].command, ctx.launcher);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((await planConnect(clientSpec('copilot'), 'user', ctx)).unchanged, true);
  });

  it('writes a symlinked dotfile through its link and keeps its mode', async () => {
    const ctx = context();
    const dotfiles = dirs.make('tshep-dotfiles-');
    const real = path.join(dotfiles, 'claude.json');
    writeFileSync(real, '{ "numStartups": 1 }\n', { mode: 0o640 });
    symlinkSync(real, path.join(ctx.home, '.claude.json'));
    const plan = await planConnect(clientSpec('claude'), 'user', ctx);
    assert.equal(plan.file, real);
    await applyConnect(plan);
    assert.ok(lstatSync(path.join(ctx.home, '.claude.json')).isSymbolicLink(), 'the link stays a link');
    assert.equal(JSON.parse(readFileSync(real, 'utf8')).mcpServers['terminal-shepherd'].command, ctx.launcher);
    assert.equal(statSync(real).mode & 0o777, 0o640);
  });

  it('leaves a file that changed after it was shown, and says so', async () => {
    const ctx = context();
    const file = path.join(ctx.home, '.claude.json');
    writeFileSync(file, '{ "numStartups": 1 }\n');
    const plan = await planConnect(clientSpec('claude'), 'user', ctx);
    writeFileSync(file, '{ "numStartups": 2 }\n'); // Claude Code wrote it meanwhile
    await assert.rejects(applyConnect(plan), (e: unknown) => e instanceof ConfigChangedError && /changed since it was shown/.test(e.message));
    assert.equal(readFileSync(file, 'utf8'), '{ "numStartups": 2 }\n');
  });

  it('inside means strictly under the folder', () => {
    assert.equal(isInside('/w', '/w/.mcp.json'), true);
    assert.equal(isInside('/w', '/w'), false);
    assert.equal(isInside('/w', '/w2/.mcp.json'), false);
    assert.equal(isInside(undefined, '/w/.mcp.json'), false);
  });
});
