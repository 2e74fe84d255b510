import assert from 'node:assert/strict';
import { commandWords } from '../../../extension/src/core/sandbox/commandWords';

describe('commandWords (the tools a line calls, for the per-tool allow-lists)', () => {
  it('takes the first word of every simple command, past assignments, prefixes and paths', () => {
    assert.deepEqual(commandWords('FOO=1 npm test && git status | grep x; sudo /usr/bin/cargo build'), ['npm', 'git', 'grep', 'cargo']);
    assert.deepEqual(commandWords('echo $(go env GOPATH) `pip --version`'), ['echo', 'go', 'pip']);
    assert.deepEqual(commandWords('if true; then python3 -m pytest; fi'), ['true', 'python3', 'fi']);
  });

  it('finds nothing in an empty line', () => {
    assert.deepEqual(commandWords('   '), []);
  });
});
