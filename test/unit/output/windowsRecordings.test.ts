/**
 * Windows' own recorded terminal sessions (VS Code's developers recorded them for VS Code's tests:
 * pwsh through ConPTY on Windows 11, and zsh on macOS; ../shared/recordings/vscode-terminal, never
 * copied into this repository), plus pwsh sessions recorded here under a Linux pty
 * (test/fixtures/pwshRecordings), replayed through the product's output layer chunk by chunk:
 * as recorded, one character at a time, and split at random (seed printed). Each command's line,
 * exit code and output, and what is typed at the final prompt, must read as VS Code reads them.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { unescapeOscValue } from '../../../extension/src/core/output/shellMarkers';
import { describeWhere } from '../../support/skips';
import { loadRecording, outputChunks, productReplay, rechunk, referenceReplay, type Chunking, type Recording, type Reference } from './recordingReplay';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sharedDir = path.resolve(repoRoot, '..', 'shared', 'recordings', 'vscode-terminal');
const ownDir = path.join(repoRoot, 'test', 'fixtures', 'pwshRecordings');
const seed = Number(process.env.TSHEP_REPLAY_SEED ?? Date.now() % 100_000);
const chunkings: Chunking[] = ['recorded', 'chars', 'random'];

function jsonFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f)) : [];
}

/** VS Code's prompt-input notation ("f|oo", "g|[it add .]" with ghost text, ⏎ for a line break) as the screen shows it. */
function screenInput(value: string, continuationPrompt: string): string {
  const cursor = value.indexOf('|');
  const after = value.slice(cursor + 1).replace(/^\[(.*)\]$/s, '$1');
  return (value.slice(0, cursor) + after).replace(/⏎/g, `\n${continuationPrompt}`);
}

function continuationPromptOf(recording: Recording): string {
  const match = /\x1b\]633;P;ContinuationPrompt=(.*?)\x07/.exec(outputChunks(recording).join(''));
  return unescapeOscValue(match?.[1] ?? '').replace(/\x1b\[[0-9;]*m/g, '');
}

/** The last prompt-input state the recording's own model reported, or its test's expectation. */
function expectedPromptInput(recording: Recording): string | undefined {
  const states = recording.events.flatMap((e) => (e.type === 'promptInputChange' && 'data' in e ? [e.data] : []));
  const expected = recording.vscodeTestExpectations?.promptInput ?? (recording.vscodeTestExpectations?.commands === null ? states[states.length - 1] : undefined);
  return expected ?? undefined;
}

function suite(title: string, files: readonly string[]): void {
  describe(title, function () {
    this.timeout(120_000);
    before(() => console.log(`      (random splits: seed ${seed}; replay it with TSHEP_REPLAY_SEED=${seed})`));
    for (const file of files) {
      const recording = loadRecording(file);
      describe(recording.name, () => {
        let reference: Reference;
        before(async () => {
          reference = await referenceReplay(recording);
        });

        it("VS Code's reading agrees with its own test and the recording's detections", () => {
          const expected = recording.vscodeTestExpectations?.commands;
          const detected = recording.events.flatMap((e) => (e.type === 'commandDetection.onCommandFinished' && 'commandLine' in e ? [e.commandLine] : []));
          if (expected) assert.deepEqual(reference.commands.map((c) => c.commandLine), [...expected]);
          if (detected.length > 0) assert.deepEqual(reference.commands.map((c) => c.commandLine), detected);
          // Our own recordings say what pwsh was asked to print, and its exit codes.
          const facts = recording.vscodeTestExpectations;
          if (facts?.outputs) assert.deepEqual(reference.commands.map((c) => c.output), [...facts.outputs]);
          if (facts?.exitCodes) assert.deepEqual(reference.commands.map((c) => c.exitCode ?? null), [...facts.exitCodes]);
          const input = expectedPromptInput(recording);
          if (input !== undefined) {
            const screen = screenInput(input, continuationPromptOf(recording));
            assert.ok(reference.promptInput?.endsWith(screen), `final prompt ${JSON.stringify(reference.promptInput)} ends with ${JSON.stringify(screen)}`);
          }
        });

        for (const chunking of chunkings) {
          it(`the product reads every command and the final prompt as VS Code does, chunks ${chunking}`, async () => {
            const replay = await productReplay(rechunk(outputChunks(recording), chunking, seed), reference);
            assert.deepEqual(replay.commands, reference.commands);
            assert.equal(replay.promptInput, reference.promptInput);
          });
        }
      });
    }
  });
}

describeWhere(existsSync(sharedDir), `VS Code's recorded sessions are not at ${sharedDir} (a clone outside this workspace)`)("Windows' recorded sessions through the output layer", () => {
  suite('VS Code recordings', jsonFiles(sharedDir));
});

describe('pwsh sessions recorded here under a Linux pty, through the output layer', () => {
  suite('own recordings', jsonFiles(ownDir));
});
