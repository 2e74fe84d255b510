/**
 * Names shared by the code that makes a shell emit markers (terminals/commandText.ts) and the
 * code that reads them out of the output (promptEchoFilter.ts).
 */

/** The OSC 633 property through which a command reports its real exit code (PowerShell: shell/pwshCommon.ps1). */
export const EXIT_CODE_PROPERTY = 'TshepExitCode';
/** The OSC 633 property saying where the exit code came from (shell, native, inferred: protocol/runResult.ts exitCodeSourceSchema). */
export const EXIT_SOURCE_PROPERTY = 'TshepExitSource';
