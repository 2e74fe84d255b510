// The bench's floor tool (test/bench/copilotBench.ts). Invoked through vscode.lm.invokeTool like any
// tool, it only runs the command through VS Code's shell integration API, in the named terminal
// (terminal_run's own, so the same shell in the same state) or one of its own, and waits for VS
// Code's end event, reading the output as it comes; it answers the exit code and how much output
// there was, nothing else. Without a command it answers at once: the cost of a tool call itself.
// What a real tool does on top (checks, capture, the MCP hops, the report) is what the bench compares.
'use strict';
const vscode = require('vscode');

const NAME = 'bench_terminal_floor';
/** Bounds: shell integration of a new terminal, and one command. */
const INTEGRATION_MS = 20_000;
const COMMAND_MS = 120_000;

/** Resolves when `event` fires with a value `accept` takes, or rejects after `ms`; disposes both. */
function waitFor(event, accept, ms, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`${NAME}: no ${what} in ${ms} ms`));
    }, ms);
    const listener = event((e) => {
      const value = accept(e);
      if (value === undefined) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(value);
    });
  });
}

function register() {
  let own;
  const shellIntegration = async (name) => {
    // terminal_run shows its terminals' names with a mark of its own ("bench" is "⚙ bench" or alike).
    const terminal = name ? vscode.window.terminals.find((t) => t.name === name) ?? vscode.window.terminals.find((t) => t.name.includes(name)) : (own ??= vscode.window.createTerminal({ name: 'floor tool' }));
    if (!terminal) throw new Error(`${NAME}: no terminal named ${name}`);
    return terminal.shellIntegration ?? waitFor(vscode.window.onDidChangeTerminalShellIntegration, (e) => (e.terminal === terminal ? e.shellIntegration : undefined), INTEGRATION_MS, 'shell integration');
  };
  const tool = vscode.lm.registerTool(NAME, {
    async invoke(options) {
      const command = options.input?.command;
      if (command === undefined) return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('nothing to run')]);
      const execution = (await shellIntegration(options.input.terminal)).executeCommand(String(command));
      const ended = waitFor(vscode.window.onDidEndTerminalShellExecution, (e) => (e.execution === execution ? e : undefined), COMMAND_MS, 'end event');
      let chars = 0;
      for await (const chunk of execution.read()) chars += chunk.length;
      const end = await ended;
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`exit code ${end.exitCode ?? 'unknown'}; ${chars} characters of output`)]);
    },
  });
  return { dispose: () => { tool.dispose(); own?.dispose(); } };
}

module.exports = { register, NAME };
