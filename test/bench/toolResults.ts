/**
 * What a terminal tool's result tells a model about a command it ran: whether it carries the exit
 * code, and how much of the output is there. Pure; used by the side-by-side bench (copilotBench.ts).
 */
import type { TerminalRunResult } from '../../common/src/protocol';

/** The commands, each with what its whole output is (to judge what a tool returned). */
export const COPILOT_COMMANDS = [
  { label: '`true`', command: 'true', exitCode: 0, lines: [] as string[] },
  { label: '`sleep 0.3`', command: 'sleep 0.3', exitCode: 0, lines: [] as string[] },
  { label: 'silent 4 s (`sleep 4 && echo finished`)', command: 'sleep 4 && echo finished', exitCode: 0, lines: ['finished'] },
  { label: 'failing `ls`', command: 'ls /definitely/not/here', exitCode: 2, lines: ["ls: cannot access '/definitely/not/here': No such file or directory"] },
  { label: '`seq 1 200000`', command: 'seq 1 200000', exitCode: 0, lines: Array.from({ length: 200_000 }, (_, i) => String(i + 1)) },
] as const;

export type ToolName = 'run_in_terminal' | 'terminal_run';

/** How much of the command's output a result carries. */
export type OutputShape = 'complete' | 'head and tail' | 'tail only' | 'head only' | 'partial' | 'missing';

/** What a tool's result says about the exit code and the output, from the text the model reads. */
export function readResult(
  tool: ToolName,
  text: string,
  expected: (typeof COPILOT_COMMANDS)[number],
): { exitCode?: number; shape: OutputShape; fullOutputFile: boolean; durationMs?: number; error?: string } {
  if (tool === 'terminal_run') {
    let result: TerminalRunResult;
    try {
      result = JSON.parse(text) as TerminalRunResult;
    } catch {
      return { shape: 'missing', fullOutputFile: false, error: text.slice(0, 200) };
    }
    return {
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      shape: outputShape(result.output, expected.lines),
      fullOutputFile: result.outputFile !== undefined,
      durationMs: result.durationMs,
    };
  }
  // run_in_terminal answers prose: the exit code only when it says so; past 20 KB it says where it saved the output.
  const code = /exit(?:ed with)? code:? (\d+)/i.exec(text);
  return { ...(code ? { exitCode: Number(code[1]) } : {}), shape: outputShape(text, expected.lines), fullOutputFile: /(saved|written) to .*\//i.test(text) };
}

/** Complete when every line of the command's output is there in order (trivially so for a command
 * that prints nothing); otherwise which end survived. */
export function outputShape(text: string, lines: readonly string[]): OutputShape {
  if (lines.length === 0) return 'complete';
  const got = text.split(/\r?\n/).map((l) => l.trim());
  const at = got.indexOf(lines[0]!);
  if (at >= 0 && lines.every((line, i) => got[at + i] === line)) return 'complete';
  const seen = new Set(got);
  const head = seen.has(lines[0]!);
  const tail = seen.has(lines.at(-1)!);
  if (head && tail) return 'head and tail';
  if (tail) return 'tail only';
  if (head) return 'head only';
  return lines.some((l) => seen.has(l)) ? 'partial' : 'missing';
}
