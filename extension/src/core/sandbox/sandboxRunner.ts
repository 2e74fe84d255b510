/**
 * The sandbox runtime's launcher, bundled on its own (dist/sandboxRunner.mjs) and run by the line
 * a sandboxed command is typed as: `node sandboxRunner.mjs <policy.json> <command>`. It does
 * what the runtime's `srt --settings … -c …` does, through the same library (the engine VS Code's
 * terminal sandbox runs), with two differences VS Code's own build of the runtime has too: no
 * `network` section means no network restriction at all (chat.agent.sandbox.allowNetwork), and
 * what the runtime saw denied is printed after the command, for the result's `sandbox` field.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';

/** The line that starts the runtime's report, read by sandboxDenials.ts. */
export const VIOLATIONS_HEADER = '[sandbox] denied:';

async function main(): Promise<void> {
  const [policyPath, command] = process.argv.slice(2);
  if (!policyPath || command === undefined) {
    process.stderr.write('usage: sandboxRunner <policy.json> <command>\n');
    process.exit(2);
  }
  const policy = JSON.parse(readFileSync(policyPath, 'utf8')) as { config: SandboxRuntimeConfig; tmpDir: string; pathAppend: string[] };
  // VS Code's wrapper sets these on the runtime's command line; the policy file carries them here, one spelling for every shell.
  process.env.PATH = [process.env.PATH, ...policy.pathAppend].filter(Boolean).join(':');
  process.env.TMPDIR = policy.tmpDir;
  process.env.CLAUDE_TMPDIR = policy.tmpDir;
  delete process.env.ELECTRON_RUN_AS_NODE;
  const config = policy.config;
  // Fail closed: a runtime that cannot confine refuses, never runs the command bare.
  const dependencies = SandboxManager.checkDependencies();
  if (dependencies.errors.length > 0) {
    process.stderr.write(`Sandbox dependencies not available: ${dependencies.errors.join(', ')}. The command was not executed.\n`);
    process.exit(126);
  }
  await SandboxManager.initialize(config, undefined, true);
  const wrapped = await SandboxManager.wrapWithSandbox(command);
  const child = spawn(wrapped, { shell: true, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  process.on('SIGHUP', forward('SIGHUP'));
  child.on('exit', (code, signal) => {
    SandboxManager.cleanupAfterCommand();
    const report = SandboxManager.annotateStderrWithSandboxFailures(command, '').trim();
    if (report.length > 0) process.stderr.write(`${VIOLATIONS_HEADER}\n${report}\n`);
    // The shell's convention, so the terminal's exit code reads as the command's own.
    process.exit(code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1));
  });
  child.on('error', (error) => {
    process.stderr.write(`Failed to execute command: ${error.message}\n`);
    process.exit(1);
  });
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

main().catch((error: unknown) => {
  process.stderr.write(`Sandbox error: ${error instanceof Error ? error.message : String(error)}. The command was not executed.\n`);
  process.exit(126);
});
