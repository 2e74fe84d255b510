// The .vsix a user installs: `npm run package` builds it (production bundle + @vscode/vsce), it
// holds only what ships, and installed with code-server's own `--install-extension` into a fresh
// VS Code (no repository symlink) it works end to end: its own bundled MCP server runs a command
// through the bridge, Show Processes lists the process, and the details page renders its README.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Locator, Page } from 'playwright-core';
import type { ListProcessesResult } from '../../common/src/protocol';
import { repoRoot } from '../support/mcpClient';
import { E2E_MACHINE_SETTINGS, E2E_SETTINGS, VSIX, flatten, makeWorkspace, packageVsix, restoreDevelopmentBuild, waitFor } from '../support/shepherdE2e';
import { launchVsCode, type VsCode } from '../support/vscodeHarness';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';

const EXTENSION_ID = 'terminal-shepherd.terminal-shepherd';
/** What ships, and nothing else. */
const SHIPPED = [
  '[Content_Types].xml',
  'extension.vsixmanifest',
  'extension/LICENSE.txt',
  'extension/package.json',
  'extension/readme.md',
  // The pages the README links to (vsce names the changelog as it names the readme).
  'extension/changelog.md',
  'extension/CONTRIBUTING.md',
  'extension/docs/architecture.md',
  'extension/docs/benchmarks.md',
  'extension/docs/clients.md',
  'extension/docs/dev-servers.md',
  'extension/docs/ledger.md',
  'extension/docs/long-work.md',
  'extension/docs/reliability.md',
  'extension/docs/safety.md',
  'extension/docs/sandbox.md',
  'extension/docs/secrets.md',
  'extension/docs/shells.md',
  'extension/docs/tools.md',
  'extension/dist/extension.js',
  'extension/dist/mcp-server.js',
  'extension/dist/parseWorker.js',
  'extension/dist/sandboxRunner.mjs',
  'extension/dist/THIRD_PARTY_NOTICES.md',
  'extension/dist/vendor/seccomp/arm64/apply-seccomp',
  'extension/dist/vendor/seccomp/x64/apply-seccomp',
  'extension/dist/grammars/tree-sitter.wasm',
  'extension/dist/grammars/tree-sitter-bash.wasm',
  'extension/dist/grammars/tree-sitter-powershell.wasm',
  'extension/shell/bash.sh',
  'extension/shell/fish.fish',
  'extension/shell/posix.sh',
  'extension/shell/pwsh.ps1',
  'extension/shell/pwshCommon.ps1',
  'extension/shell/pwshUtf8.ps1',
  'extension/shell/zlogin.zsh',
  'extension/shell/zprofile.zsh',
  'extension/shell/zshenv.zsh',
  'extension/shell/zshrc.zsh',
  'extension/media/icon.png',
  'extension/media/processes-view.svg',
  // The Getting Started walkthrough's pictures (package.json contributes.walkthroughs).
  'extension/media/walkthrough/connect-client.png',
  'extension/media/walkthrough/dev-server.png',
  'extension/media/walkthrough/processes.png',
  'extension/media/walkthrough/run-command.png',
];

/** Entry names of a zip (python3's zipfile: on every machine that runs these tests). */
function zipEntries(file: string): string[] {
  const r = spawnSync('python3', ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean);
}

function zipText(file: string, entry: string): string {
  const r = spawnSync('python3', ['-c', 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())', file, entry], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const pickRow = (page: Page, text: string): Locator => page.locator(`.quick-input-list .monaco-list-row[aria-label*="${text}"]`);

async function runFromPalette(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  await pickRow(page, title).first().click({ timeout: 10_000 });
}

describe('the .vsix: npm run package, only what ships, installed into a fresh VS Code', function () {
  this.timeout(240_000);
  const timings: Record<string, number> = {};
  let failed = false;

  before(function () {
    this.timeout(240_000);
    const t0 = Date.now();
    const built = packageVsix();
    timings['npm run package'] = Date.now() - t0;
    // vsce prints " DONE " before it, except on GitHub Actions, where its log lines go bare.
    assert.match(built.output, /^(\s*DONE\s+)?Packaged: .*terminal-shepherd\.vsix/m);
  });
  afterEach(function () {
    failed ||= this.currentTest?.state === 'failed';
  });
  after(function () {
    this.timeout(120_000);
    // The rest of the suite runs on the development build (source maps, readable stacks).
    restoreDevelopmentBuild();
    console.log(`      timings (ms): ${JSON.stringify(timings)}`);
  });

  it('holds only what ships: the two bundles (minified, no source maps), the shell grammars, manifest, README, LICENSE, icons, the walkthrough\'s pictures', () => {
    const entries = zipEntries(VSIX);
    assert.deepEqual([...entries].sort(), [...SHIPPED].sort());
    for (const bad of ['node_modules', '.map', '.ts', 'test/', 'extension/src', 'common/', '.devtools', '.vscode-test', 'screenshots']) {
      assert.ok(!entries.some((e) => e.includes(bad)), `nothing matching ${bad} ships`);
    }
    // README images stay relative (there is no public URL to point them at): vsce must not have
    // rewritten them into made-up absolute URLs.
    const readme = zipText(VSIX, 'extension/readme.md');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(images.every((src) => !/^[a-z]+:/.test(src)), images.join(', '));
    const manifest = JSON.parse(zipText(VSIX, 'extension/package.json'));
    assert.equal(manifest.main, './dist/extension.js');
    const walkthroughMedia = (manifest.contributes.walkthroughs as { steps: { media: { image: string } }[] }[]).flatMap((w) => w.steps.map((step) => `extension/${step.media.image}`));
    assert.deepEqual(walkthroughMedia.filter((m) => !entries.includes(m)), [], "every walkthrough step's picture ships");
    assert.ok(manifest.contributes.views.terminalShepherd, 'the Processes view is contributed');
    const bundle = zipText(VSIX, 'extension/dist/extension.js');
    assert.ok(!bundle.includes('sourceMappingURL'), 'production bundle: no source map reference');
    assert.ok(bundle.length / bundle.split('\n').length > 1000, 'production bundle: minified (long lines)');
    // The bundles drop legal comments: the licences of what they carry ship beside them, the sandbox runtime's Apache-2.0 among them.
    const notices = zipText(VSIX, 'extension/dist/THIRD_PARTY_NOTICES.md');
    for (const name of ['@anthropic-ai/sandbox-runtime', '@modelcontextprotocol/sdk', 'zod', 'web-tree-sitter', '@vscode/tree-sitter-wasm']) assert.match(notices, new RegExp(`^## ${name.replace(/[/.]/g, '\\$&')} \\S+ \\(`, 'm'), `the notices name ${name}`);
    assert.match(notices, /## @anthropic-ai\/sandbox-runtime [^\n]*\(Apache-2\.0\)[\s\S]*Apache License\s+Version 2\.0/);
    const size = statSync(VSIX).size;
    timings['vsix bytes'] = size;
    assert.ok(size < 3 * 1024 * 1024, `${size} bytes`);
  });

  describe('installed with --install-extension into a fresh VS Code', () => {
    let vsc: VsCode;
    let client: Client | undefined;
    let workspace: string;
    let installedDir: string;

    before(async function () {
      this.timeout(900_000);
      await ensureVsCode();
      workspace = makeWorkspace();
      const t0 = Date.now();
      // The per-command check on, as a user has it: the bundle must load the grammars to let a command run unasked.
      vsc = await launchVsCode({ workspace, vsix: [VSIX], settings: { ...E2E_SETTINGS, 'terminalShepherd.safety.perCommandCheck': true }, machineSettings: E2E_MACHINE_SETTINGS, label: 'vsix' });
      timings['install + open VS Code'] = Date.now() - t0;
      await waitFor('the installed extension to advertise its bridge', 60_000, () => existsSync(path.join(workspace, '.devtools', 'bridge.json')));
    });
    after(async () => {
      await client?.close().catch(() => undefined);
      await vsc?.stop({ failed });
    });

    it('runs from the extensions dir, a real copy (not the repository)', async () => {
      installedDir = await vsc.driver.evaluate<string>(`return vscode.extensions.getExtension('${EXTENSION_ID}').extensionPath`);
      assert.ok(installedDir.startsWith(vsc.extensionsDir), installedDir);
      assert.equal(lstatSync(installedDir).isSymbolicLink(), false);
      assert.equal(existsSync(path.join(installedDir, 'extension')), false, 'unpacked, not nested');
      assert.deepEqual(JSON.parse(readFileSync(path.join(installedDir, 'package.json'), 'utf8')).version, JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version);
      assert.equal(await vsc.driver.evaluate<boolean>(`return vscode.extensions.getExtension('${EXTENSION_ID}').isActive`), true);
    });

    it("its own MCP server runs a command through the bridge, and Show Processes lists the process", async () => {
      // The shipped dist/mcp-server.js, as a user's MCP client would start it.
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [path.join(installedDir, 'dist', 'mcp-server.js'), '--workspace', workspace],
        env: { PATH: process.env.PATH ?? '' },
        cwd: workspace,
        stderr: 'pipe',
      });
      client = new Client({ name: 'vsix-test', version: '1.0.0' });
      await client.connect(transport);
      const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
        const r = await client!.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
        assert.notEqual(r.isError, true, JSON.stringify(r.content));
        return r.structuredContent as Record<string, unknown>;
      };
      const t0 = Date.now();
      const ran = await call('terminal_run', { command: 'sleep 297 &', name: 'vsix' });
      timings['first terminal_run (new terminal)'] = Date.now() - t0;
      assert.equal(ran.status, 'completed');
      // Approved by a rule only after the bundled extension parsed the line with the shipped grammars (unread, it would have asked).
      assert.deepEqual(ran.safety, { decision: 'approved', reason: 'approved by `sleep` (default)', rules: ['`sleep` (default)'] });
      const piped = await call('terminal_run', { command: 'git status --short | grep -c x; Get-ChildItem', name: 'vsix' });
      assert.equal((piped.safety as { decision: string }).decision, 'approved', JSON.stringify(piped.safety));
      const sleeper = await waitFor('the sleep in list_processes', 15_000, async () =>
        flatten(((await call('list_processes', {})) as unknown as ListProcessesResult).active).find((p) => p.commandLine === 'sleep 297'),
      );
      await runFromPalette(vsc.page, 'Terminal Shepherd: Show Processes');
      const row = pickRow(vsc.page, `pid ${sleeper.pid} `);
      await row.waitFor({ timeout: 10_000 });
      assert.match((await row.getAttribute('aria-label')) ?? '', new RegExp(`^sleep, pid ${sleeper.pid} · \\d+s(?: · \\d+% CPU)?(?: · [\\d.]+ [KMGT]?B)?, sleep 297, vsix · shell pid ${ran.pid}$`));
      await vsc.page.keyboard.press('Escape');
    });

    it("the extension's details page renders the shipped README", async () => {
      // As a user: the Extensions view, installed extensions, ours (offline: no gallery query).
      await vsc.driver.evaluate(`await vscode.commands.executeCommand('workbench.extensions.search', '@installed Terminal Shepherd')`);
      await vsc.page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Terminal Shepherd' }).first().click({ timeout: 20_000 });
      // The README renders in a webview (nested iframes): look for its sections in any frame.
      await waitFor('the README in the details page', 20_000, async () => {
        for (const frame of vsc.page.frames()) {
          const headings = await frame.locator('h2').allInnerTexts().catch(() => [] as string[]);
          if (headings.includes('Install and first run') && headings.includes('In VS Code')) return true;
        }
        return undefined;
      });
      await vsc.screenshot(path.join(repoRoot, 'test-results', 'vsix-details-page.png'));
    });
  });
});
