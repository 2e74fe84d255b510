/**
 * The prompt/echo filter, between the marker parser and the renderer. Between the prompt-start (or
 * command-finished) and command-executed markers the shell prints its prompt and echoes the
 * command line: that data is dropped, the rest is passed on. The markers of one integration count:
 * VS Code's OSC 633 once one is seen (a nested program's own OSC 133 markers must not hide its
 * output), OSC 133 while none was (a prompt that marks itself only so, like powerlevel10k's).
 *
 * Where the real screen is known, the output starts at the cursor of the command-executed marker
 * (`origin`), as it did on the screen; otherwise on a new line after a dropped prompt. A shell
 * that reports its screen itself (SCREEN_PROPERTY, our PowerShell integration, right after C and
 * before the command runs) has the first command's output rendered on a screen of that size, from
 * that cursor (`target.screen`); what came between C and the report was the shell's, not output.
 *
 * On the way it picks up the exit code a command reports itself (EXIT_CODE_PROPERTY) and where
 * that code came from (EXIT_SOURCE_PROPERTY).
 */
import type { PositionedShellMarker, ShellMarker, ShellMarkerSource } from './shellMarkers';
import { isExitCodeSource, type ExitCodeSource } from '../../../../common/src/protocol';
import { EXIT_CODE_PROPERTY, EXIT_SOURCE_PROPERTY, SCREEN_PROPERTY } from './shellMarkers';
import { parseScreenReport, type ScreenOrigin, type ScreenReport } from './outputStart';
import type { TerminalRenderer } from './terminalRenderer';

/** Where the filter sends output: the renderer, and who renders on a screen the shell reported. */
export interface PromptEchoTarget extends Pick<TerminalRenderer, 'write' | 'ensureLineStart' | 'startAt'> {
  /** The output starts at `report`'s cursor on a screen of its size; nothing written so far is output. */
  screen(report: ScreenReport): void;
}

type Region = 'output' | 'prompt';

export class PromptEchoFilter {
  private region: Region = 'output';
  private droppedSinceOutput = false;
  private passedAny = false;
  private exitCode: number | undefined;
  private exitSource: ExitCodeSource | undefined;
  /** '633' from the first VS Code marker on; until then 133 markers delimit prompts too. */
  private integration: ShellMarkerSource | undefined;
  /** Where the first command-executed marker's output starts on the real screen, until used. */
  private origin: ScreenOrigin | undefined;
  /** A prompt-delimiting marker was seen: data passed before the first one was no output. */
  private sawRegionMarker = false;
  /** Command-executed markers seen: a screen report counts in the first command's output only. */
  private executed = 0;
  private screenReported = false;

  /** With `stripPromptAndEcho` false only the exit-code property is read; all data passes. */
  constructor(
    private readonly target: PromptEchoTarget,
    private readonly stripPromptAndEcho: boolean,
    origin?: ScreenOrigin,
  ) {
    if (origin && !stripPromptAndEcho) {
      target.startAt(origin); // everything is output: it starts where the stream does
    } else {
      this.origin = origin;
    }
  }

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
    if (marker.source === '633') {
      this.integration = '633';
    }
    if (this.stripPromptAndEcho && marker.source === (this.integration ?? marker.source)) {
      const first = !this.sawRegionMarker;
      this.sawRegionMarker ||= marker.kind !== 'commandLine' && marker.kind !== 'property' && marker.kind !== 'other';
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
          this.executed++;
          if (this.origin || (first && this.passedAny)) {
            // A command's stream begins with the chunk its C came in: what came before C there
            // is the prompt's last repaint (PSReadLine's), drawn where our cursor was not.
            this.target.startAt(this.origin ?? { row: 0, col: 0 }, first && this.passedAny);
            this.origin = undefined;
          } else if (this.region === 'prompt' && this.droppedSinceOutput && this.passedAny) {
            // Output after a dropped prompt starts on a new line, as it did on the real screen.
            this.target.ensureLineStart();
          }
          this.region = 'output';
          this.droppedSinceOutput = false;
          break;
        case 'property':
          if (marker.key === SCREEN_PROPERTY) this.onScreenReport(marker.value);
          break;
        default:
          break;
      }
    }
  }

  /** The first command's screen, reported before it ran: its output is rendered there. */
  private onScreenReport(value: string): void {
    const report = parseScreenReport(value);
    // No C seen yet: the stream began after it (a reader that starts at the output).
    if (!report || this.screenReported || this.executed > 1 || this.region !== 'output') return;
    this.screenReported = true;
    this.origin = undefined;
    this.target.screen(report);
  }
}
