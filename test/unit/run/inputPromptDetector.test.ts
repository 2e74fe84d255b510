import assert from 'node:assert/strict';
import { detectInputPrompt, lastNonEmptyLine } from '../../../extension/src/core/run/inputPromptDetector';

const observe = (lines: string[], silentForMs: number, readingTerminal: boolean | 'unknown' = false) =>
  detectInputPrompt({ lastLines: lines, silentForMs, readingTerminal });

describe('detectInputPrompt', () => {
  const strong = [
    'Do you want to continue? [Y/n] ',
    'Proceed (y/n)?',
    'Overwrite existing file? (yes/no) ',
    '[sudo] password for dev: ',
    'Enter passphrase for key \'/home/dev/.ssh/id_ed25519\': ',
    'Press any key to continue . . .',
    'Press Enter to continue',
    'Are you sure you want to delete 3 files?',
    '? Would you like to use TypeScript? › No / Yes',
  ];
  for (const line of strong) {
    it(`reports a strong prompt after a short silence: ${JSON.stringify(line)}`, () => {
      assert.deepEqual(observe(['some output', line], 400), { prompt: line.trimEnd() });
      assert.equal(observe(['some output', line], 100), undefined, 'not before the silence');
    });
  }

  it('uses the OS signal: blocked on a terminal read reports whatever the last line is', () => {
    assert.deepEqual(observe(['Name? '], 400, true), { prompt: 'Name?' });
    assert.deepEqual(observe(['>>> '], 400, true), { prompt: '>>>' });
    assert.equal(observe([], 400, true), undefined, 'a prompt printed just before the read may still be on its way');
    assert.deepEqual(observe([], 1000, true), { prompt: '' }, 'cat waiting on stdin has no prompt');
    assert.equal(observe(['Name? '], 100, true), undefined);
  });

  it('the shell itself reading after a tail that is no prompt is its own prompt until a long silence (the end event late in a loaded VS Code)', () => {
    const shell = (lines: string[], silentForMs: number) => detectInputPrompt({ lastLines: lines, silentForMs, readingTerminal: true, reader: 'shell' });
    assert.equal(shell([], 1100), undefined, '`cd /tmp` printed nothing: the shell is back at its prompt');
    assert.equal(shell(['hello world'], 3100), undefined, 'Write-Output printed a line: not a prompt');
    assert.deepEqual(shell([], 5000), { prompt: '' }, 'a `read` with no prompt is still reported');
    assert.deepEqual(shell(['Name: '], 400), { prompt: 'Name:' }, 'read -p "Name: " is a prompt at once');
    assert.deepEqual(shell(['Continue? [y/N] '], 400), { prompt: 'Continue? [y/N]' });
    assert.deepEqual(detectInputPrompt({ lastLines: [], silentForMs: 1000, readingTerminal: true, reader: 'job' }), { prompt: '' }, 'a job (cat) reading is as before');
  });

  it('never treats a silent command as waiting when the OS says it is not reading', () => {
    assert.equal(observe(['Start: 10:00:00'], 60_000, false), undefined);
    assert.equal(observe(['Compiling:'], 60_000, false), undefined);
    assert.equal(observe([''], 60_000, false), undefined);
  });

  it('where the OS cannot tell, a weak prompt counts only after a long silence', () => {
    assert.equal(observe(['Name: '], 1000, 'unknown'), undefined);
    assert.deepEqual(observe(['Name: '], 3500, 'unknown'), { prompt: 'Name:' });
    assert.deepEqual(observe(['>>> '], 3500, 'unknown'), { prompt: '>>>' });
    assert.equal(observe(['Building module 3 of 7'], 3500, 'unknown'), undefined);
  });

  it('looks at the last non-empty line only', () => {
    assert.equal(observe(['Continue? [y/N]', 'Aborted.', ''], 1000), undefined);
    assert.equal(lastNonEmptyLine(['a', 'b  ', '   ', '']), 'b');
  });

  const repls = ['>>> ', '... ', 'In [1]: ', '   ...: ', '> ', 'irb(main):001:0> ', 'irb(main):002> ', 'mydb=# ', 'mydb-> ', 'sqlite> ', '   ...> ', '(gdb) ', '(Pdb) ', 'mysql> '];
  for (const line of repls) {
    it(`a REPL prompt is waiting for input after about a second of silence, whatever the OS says: ${JSON.stringify(line)}`, () => {
      assert.deepEqual(observe(['Python 3.11', line], 800, false), { prompt: line.trimEnd() });
      assert.equal(observe(['Python 3.11', line], 500, false), undefined, 'not before the silence');
    });
  }

  it('log lines that merely end in > or # are no REPL prompts', () => {
    for (const line of ['<html>', 'step 3 of 5 >', 'C#', 'build >> out', '->']) {
      assert.equal(observe(['x', line], 5000, false), undefined, line);
    }
  });
});
