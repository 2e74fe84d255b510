/**
 * The prompt/echo filter, between the marker parser and the renderer. Between VS Code's
 * prompt-start (or command-finished) and command-executed markers the shell prints its prompt and
 * echoes the command line: that data is dropped, the rest is passed on. Only OSC 633 markers
 * count: a nested program's own OSC 133 markers must not hide its output.
 *
 * On the way it picks up the exit code a command reports itself (EXIT_CODE_PROPERTY) and where
 * that code came from (EXIT_SOURCE_PROPERTY).
 */
import type { PositionedShellMarker, ShellMarker } from './shellMarkers';
import { isExitCodeSource, type ExitCodeSource } from '../../../../common/src/protocol';
import { EXIT_CODE_PROPERTY, EXIT_SOURCE_PROPERTY } from './shellMarkers';
import type { TerminalRenderer } from './terminalRenderer';

type Region = 'output' | 'prompt';

export class PromptEchoFilter {
  private region: Region = 'output';
  private droppedSinceOutput = false;
  private passedAny = false;
  private exitCode: number | undefined;
  private exitSource: ExitCodeSource | undefined;

  /** With `stripPromptAndEcho` false only the exit-code property is read; all data passes. */
  constructor(
    private readonly target: Pick<TerminalRenderer, 'write' | 'ensureLineStart'>,
    private readonly stripPromptAndEcho: boolean,
  ) {}

  /** The exit code the command line reported itself (`OSC 633 ; P ; TshepExitCode=N`), if it did. */
  get reportedExitCode(): number | undefined {
    return this.exitCode;
  }

  /** Where the command said its exit code came from (`OSC 633 ; P ; TshepExitSource=native`), if it did. */
  get reportedExitSource(): ExitCodeSource | undefined {
    return this.exitSource;
  }

  /**
   * Passes on the parser's data, each marker taking effect at its offset. True if anything
   * visible was passed on.
   */
  pass(data: string, markers: readonly PositionedShellMarker[] = []): boolean {
    if (markers.length === 0) {
      return this.route(data);
    }
    let passed = false;
    let pos = 0;
    for (const marker of markers) {
      passed = this.route(data.slice(pos, marker.offset)) || passed;
      pos = marker.offset;
      this.onMarker(marker);
    }
    return this.route(data.slice(pos)) || passed;
  }

  /** Sends data of the current region on; true if anything visible was sent. */
  private route(data: string): boolean {
    if (data.length === 0) {
      return false;
    }
    if (this.region === 'prompt') {
      this.droppedSinceOutput = true;
      return false;
    }
    this.target.write(data);
    this.passedAny = true;
    return true;
  }

  /** VS Code's prompt and command-start markers switch between dropping (prompt, echo) and passing. */
  private onMarker(marker: ShellMarker): void {
    if (marker.kind === 'property' && marker.key === EXIT_CODE_PROPERTY && /^-?\d{1,10}$/.test(marker.value)) {
      this.exitCode = Number(marker.value);
    }
    if (marker.kind === 'property' && marker.key === EXIT_SOURCE_PROPERTY && isExitCodeSource(marker.value)) {
      this.exitSource = marker.value;
    }
    if (this.stripPromptAndEcho && marker.source === '633') {
      switch (marker.kind) {
        case 'promptStart':
        case 'commandStart':
        case 'continuationStart':
        case 'continuationEnd':
        case 'rightPromptStart':
        case 'rightPromptEnd':
        case 'commandFinished':
          this.region = 'prompt';
          break;
        case 'commandExecuted':
          if (this.region === 'prompt' && this.droppedSinceOutput && this.passedAny) {
            // Output after a dropped prompt starts on a new line, as it did on the real screen.
            this.target.ensureLineStart();
          }
          this.region = 'output';
          this.droppedSinceOutput = false;
          break;
        default:
          break;
      }
    }
  }
}
