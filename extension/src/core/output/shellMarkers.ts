/**
 * Names shared by the code that makes a shell emit markers (terminals/commandText.ts) and the
 * code that reads them out of the output (promptEchoFilter.ts).
 */

/** The OSC 633 property through which a command line reports its real exit code (PowerShell: see commandText.ts). */
export const EXIT_CODE_PROPERTY = 'TshepExitCode';
