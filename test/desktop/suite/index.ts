// Runs inside desktop VS Code's extension host (launched by test/desktop/runDesktopTest.ts through
// @vscode/test-electron, bundled to out/desktop-suite/index.js first). Minimal on purpose: the
// extension loads and activates in a desktop build. Real-VS-Code behaviour is covered by the
// code-server e2e suite (test/e2e).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'terminal-shepherd.terminal-shepherd';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded (extensions seen: ${vscode.extensions.all.map((e) => e.id).join(', ')})`);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ext.activate(),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${EXTENSION_ID} did not activate within 30 s`)), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  assert.equal(ext.isActive, true, `${EXTENSION_ID} is not active`);
  console.log(`[desktop-test] ${EXTENSION_ID} activated in VS Code ${vscode.version}`);
}
