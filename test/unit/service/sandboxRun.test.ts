import assert from 'node:assert/strict';
import type { SandboxReport } from '../../../common/src/protocol';
import { deniedNote, leaveOffer } from '../../../extension/src/core/service/sandboxRun';
import { defaultVsCodeSandboxSettings } from '../../../extension/src/core/sandboxSettings';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';

const settings = (over: Partial<ShepherdSettings['vscodeSandbox']> = {}): ShepherdSettings => ({ ...defaultSettings, vscodeSandbox: { ...defaultVsCodeSandboxSettings, enabled: true, ...over } });
const writeDenied: SandboxReport = { mode: 'vscode', network: false, denied: { paths: ['/tmp/x'], network: false, hosts: [] } };
const netDenied: SandboxReport = { mode: 'vscode', network: false, denied: { paths: [], network: true, hosts: ['registry.npmjs.org'] } };

describe('leaving the sandbox after a denial (the question, and when VS Code allows it)', () => {
  it('offers "outside" for a denied path, in VS Code\'s words, only while allowUnsandboxedCommands allows it', async () => {
    const offer = leaveOffer('touch /tmp/x', writeDenied, settings());
    assert.equal(offer.kind, 'ask');
    if (offer.kind !== 'ask') return;
    assert.equal(offer.as, 'outside');
    const verdict = await offer.check.check({ kind: 'input', text: '', terminal: 't', strategy: 'vscode', command: undefined }, { session: 's' });
    assert.deepEqual(verdict, { kind: 'ask', reason: "VS Code's terminal sandbox (chat.agent.sandbox.enabled) denied it /tmp/x: Run `touch /tmp/x` command outside the sandbox?" });
    const refused = leaveOffer('touch /tmp/x', writeDenied, settings({ allowUnsandboxedCommands: false }));
    assert.equal(refused.kind, 'none');
    assert.match(refused.kind === 'none' ? String(refused.note) : '', /disabled by chat\.agent\.sandbox\.allowUnsandboxedCommands/);
  });

  it('offers the network for a network-only denial while retryWithAllowNetworkRequests allows it, else "outside"', () => {
    const offer = leaveOffer('npm install', netDenied, settings());
    assert.deepEqual([offer.kind, offer.kind === 'ask' && offer.as], ['ask', 'network']);
    const fallback = leaveOffer('npm install', netDenied, settings({ retryWithAllowNetworkRequests: false }));
    assert.deepEqual([fallback.kind, fallback.kind === 'ask' && fallback.as], ['ask', 'outside']);
  });

  it('always lets the person decide for our own confinement, and offers nothing without a denial', () => {
    const confined = leaveOffer('touch /tmp/x', { ...writeDenied, mode: 'confined' }, settings({ allowUnsandboxedCommands: false }));
    assert.equal(confined.kind, 'ask');
    assert.deepEqual(leaveOffer('ls', { mode: 'vscode', network: true }, settings()), { kind: 'none', note: undefined });
  });

  it('tells the model what the answer was', () => {
    assert.match(String(deniedNote({ ...writeDenied, retry: { as: 'outside', answer: 'declined' } })), /declined running it outside the sandbox; nothing else ran\. Do not retry it outside the sandbox/);
    assert.match(String(deniedNote({ ...writeDenied, retry: { as: 'network', answer: 'approved' } })), /approved running it again with network access, and this is that run/);
    assert.equal(deniedNote({ mode: 'vscode', network: true }), undefined);
  });
});
