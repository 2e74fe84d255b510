/**
 * cmd.exe asks "Terminate batch job (Y/N)?" when Ctrl+C reaches a batch file it runs (npm.cmd,
 * yarn.cmd, any .cmd/.bat a PowerShell or cmd terminal starts; microsoft/node-pty#168), and waits
 * for an answer before anything else can run. When the Ctrl+C was Terminal Shepherd's (an agent's
 * terminal_input "\u0003", a cancel, a restart), the question is answered the way the interrupt
 * meant it. The prompt is localized with the answer letter in it: the letter is read from it.
 */

/** The prompt in the languages cmd.exe ships most (its message 0x237B, "^C" and all). */
const BATCH_JOB_PROMPTS: readonly RegExp[] = [
  /Terminate batch job \((\p{L})\/\p{L}\)\?\s*$/iu, // en
  /Batchvorgang abbrechen \((\p{L})\/\p{L}\)\?\s*$/iu, // de
  /Terminer le programme de commandes \((\p{L})\/\p{L}\)\s*\?\s*$/iu, // fr
  /terminar el trabajo por lotes \((\p{L})\/\p{L}\)\?\s*$/iu, // es
];

/** The letter that answers yes when `line` (the last line of output) is cmd.exe's batch-job question, else undefined. */
export function batchJobAnswer(line: string): string | undefined {
  for (const pattern of BATCH_JOB_PROMPTS) {
    const match = pattern.exec(line);
    if (match) return match[1]!.toUpperCase();
  }
  return undefined;
}
