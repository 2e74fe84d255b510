import assert from 'node:assert/strict';
import { commandPolicy, type SandboxPlace } from '../../../extension/src/core/sandbox/sandboxPolicy';
import { defaultVsCodeSandboxSettings, type VsCodeSandboxSettings } from '../../../extension/src/core/sandboxSettings';

const place: SandboxPlace = { os: 'linux', home: '/home/ann', workspaceFolders: ['/home/ann/project'], tempDir: '/tmp/ts-sandbox/tmp', runtimeReadPaths: ['/home/ann/.vscode/extensions/ts/dist'] };
const settings = (over: Partial<VsCodeSandboxSettings> = {}): VsCodeSandboxSettings => ({ ...defaultVsCodeSandboxSettings, enabled: true, ...over });

describe('sandbox policy (VS Code terminal sandbox semantics)', () => {
  it('writes only in the workspace folders and the sandbox temp folder; the home folder is denied to reads except the workspace and the runtime', () => {
    const { config } = commandPolicy('ls', settings(), place);
    assert.deepEqual(config.filesystem.allowWrite, ['/home/ann/project', '/tmp/ts-sandbox/tmp']);
    assert.deepEqual(config.filesystem.denyRead, ['/home/ann']);
    assert.deepEqual(config.filesystem.allowRead, ['/home/ann/.vscode/extensions/ts/dist', '/home/ann/project', '/tmp/ts-sandbox/tmp']);
    assert.deepEqual(config.filesystem.denyWrite, []);
  });

  it('opens the caches of the tools a line calls, never ~/.ssh for npm, and ~/.gitconfig, ~/.ssh and ~/.gnupg for git', () => {
    const npm = commandPolicy('cd web && npm test', settings(), place).config;
    assert.ok(npm.filesystem.allowRead.includes('/home/ann/.npm'));
    assert.ok(npm.filesystem.allowRead.includes('/home/ann/.cache/yarn'));
    assert.ok(!npm.filesystem.allowRead.some((p) => p.includes('.ssh')));
    assert.ok(npm.filesystem.allowWrite.includes('/home/ann/.volta/'), 'VS Code lets node tools write volta');
    const git = commandPolicy('git commit -S -m x', settings(), place).config;
    for (const p of ['/home/ann/.gitconfig', '/home/ann/.ssh', '/home/ann/.gnupg']) assert.ok(git.filesystem.allowRead.includes(p), p);
    assert.ok(git.filesystem.allowWrite.includes('/home/ann/.gnupg'));
    assert.equal(git.network.allowAllUnixSockets, true, "gpg's agent socket");
    assert.equal(commandPolicy('ls', settings(), place).config.network.allowAllUnixSockets, undefined);
  });

  it('uses the macOS caches on macOS', () => {
    const { config } = commandPolicy('pip install x', settings(), { ...place, os: 'mac', home: '/Users/ann' });
    assert.ok(config.filesystem.allowRead.includes('/Users/ann/Library/Caches/pip'));
    assert.ok(!config.filesystem.allowRead.includes('/Users/ann/.cache/pip'));
  });

  it('adds chat.agent.sandbox.fileSystem.linux, with ~ expanded', () => {
    const { config } = commandPolicy('ls', settings({ fileSystem: { denyRead: ['~/.aws'], allowRead: ['~/notes'], allowWrite: ['~/scratch', '/srv/out'], denyWrite: ['/home/ann/project/.env'] } }), place);
    assert.deepEqual(config.filesystem.allowWrite, ['/home/ann/project', '/tmp/ts-sandbox/tmp', '/home/ann/scratch', '/srv/out']);
    assert.deepEqual(config.filesystem.denyRead, ['/home/ann/.aws', '/home/ann']);
    assert.ok(config.filesystem.allowRead.includes('/home/ann/notes'));
    assert.deepEqual(config.filesystem.denyWrite, ['/home/ann/project/.env']);
  });

  it('leaves the network open with allowNetwork (no allowedDomains: no restriction), and closes it to the allowed domains without', () => {
    const open = commandPolicy('curl x', settings(), place);
    assert.equal(open.network, true);
    assert.equal(open.config.network.allowedDomains, undefined);
    const closed = commandPolicy('curl x', settings({ allowNetwork: false, allowedDomains: ['github.com'], deniedDomains: ['evil.example'] }), place);
    assert.equal(closed.network, false);
    assert.deepEqual(closed.config.network.allowedDomains, ['github.com']);
    assert.deepEqual(closed.config.network.deniedDomains, ['evil.example']);
    const retried = commandPolicy('curl x', settings({ allowNetwork: false }), place, { allowNetwork: true });
    assert.equal(retried.network, true);
    assert.equal(retried.config.network.allowedDomains, undefined);
  });

  it('passes chat.agent.sandbox.advanced.runtime through at the root, under the policy it cannot loosen', () => {
    const { config } = commandPolicy('ls', settings({ runtime: { enableWeakerNestedSandbox: true, filesystem: { allowWrite: ['/'] } } }), place);
    assert.equal(config.enableWeakerNestedSandbox, true);
    assert.deepEqual(config.filesystem.allowWrite, ['/home/ann/project', '/tmp/ts-sandbox/tmp']);
  });
});
