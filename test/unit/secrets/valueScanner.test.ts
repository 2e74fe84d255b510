import assert from 'node:assert/strict';
import { ValueScanner } from '../../../extension/src/core/secrets/valueScanner';
import { Random } from '../../soak/random';

/** Every place of every value, by plain indexOf: what the one-pass scan must find. */
function naive(text: string, values: readonly string[]): string[] {
  const found: string[] = [];
  for (const value of new Set(values)) for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) found.push(`${i}:${i + value.length}`);
  return found.sort();
}

/** What secretLines does: the pass for the rest, the scans for rare letters, and every place of each anchor handed to `atAnchor` (each place once). */
function scanned(text: string, scanner: ValueScanner, anchors = ''): string[] {
  const found = new Set<string>();
  const push = (start: number, end: number): Set<string> => found.add(`${start}:${end}`);
  scanner.scan(text, push);
  scanner.scanOwnLetters(text, push);
  for (const anchor of anchors) for (let i = text.indexOf(anchor); i >= 0; i = text.indexOf(anchor, i + 1)) scanner.atAnchor(text, i, push);
  return [...found].sort();
}

describe('ValueScanner', () => {
  it('finds every place of every value as indexOf does, in 500 random texts (short and long values, values inside others, overlaps, non-ASCII)', () => {
    const random = new Random(2828);
    const alphabet = 'ab-_0x中é';
    const word = (min: number, max: number): string => Array.from({ length: random.int(min, max) }, () => random.pick([...alphabet])).join('');
    for (let round = 0; round < 500; round++) {
      const values = Array.from({ length: random.int(1, 6) }, () => word(6, 30));
      if (random.chance(0.3)) values.push(values[0]!.slice(1, 7));
      const parts: string[] = [];
      for (let p = random.int(0, 12); p > 0; p--) parts.push(random.chance(0.4) ? random.pick(values) : word(0, 20));
      const text = parts.join('');
      const scanner = new ValueScanner(values);
      assert.deepEqual(scanned(text, scanner), naive(text, values), `round ${round}: ${JSON.stringify({ values, text })}`);
    }
  });

  it('finds every place in 300 texts over a wide alphabet, where most windows move by 2 characters alone, values of 6 to 400 characters (moves capped at 255)', () => {
    const random = new Random(2929);
    const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._-/:=\n→中é✓'];
    const word = (min: number, max: number): string => Array.from({ length: random.int(min, max) }, () => random.pick(alphabet)).join('');
    for (let round = 0; round < 300; round++) {
      const values = Array.from({ length: random.int(1, 8) }, () => word(6, random.chance(0.2) ? 400 : 40));
      const parts: string[] = [];
      for (let p = random.int(0, 10); p > 0; p--) parts.push(random.chance(0.3) ? random.pick(values) : word(0, 300));
      const text = parts.join('');
      assert.deepEqual(scanned(text, new ValueScanner(values)), naive(text, values), `round ${round}: ${JSON.stringify({ values, text })}`);
    }
  });

  it('finds a value at the very start and end of the text, overlapping itself, and nothing in a text shorter than every value', () => {
    const scanner = new ValueScanner(['aaaaaa', 'secret-value-1234567']);
    assert.deepEqual(scanned('aaaaaaa secret-value-1234567', scanner), ['0:6', '1:7', '8:28']);
    assert.deepEqual(scanned('aaaaa', scanner), []);
  });

  it('finds values holding an anchor at its places only, and the others in the pass, as indexOf does, in 500 random texts', () => {
    const random = new Random(2830);
    const anchors = 'J=_:-';
    const alphabet = [...'ab0J=_:-\n中'];
    const word = (min: number, max: number): string => Array.from({ length: random.int(min, max) }, () => random.pick(alphabet)).join('');
    for (let round = 0; round < 500; round++) {
      // Values with anchors anywhere (first, last, only last: then the pass), and some with none.
      const values = Array.from({ length: random.int(1, 6) }, () => (random.chance(0.3) ? random.string(random.int(6, 20), 'ab0\n中') : word(6, 20)));
      const parts: string[] = [];
      for (let p = random.int(0, 12); p > 0; p--) parts.push(random.chance(0.4) ? random.pick(values) : word(0, 12));
      const text = parts.join('');
      assert.deepEqual(scanned(text, new ValueScanner(values, anchors), anchors), naive(text, values), `round ${round}: ${JSON.stringify({ values, text })}`);
    }
  });

  it('looks for a value at the first anchor of the list it holds with a character after it; a value whose only anchor ends it goes to the pass', () => {
    const scanner = new ValueScanner(['x-y_zzzz', 'abcdef-', 'J=secret'], 'J=_:-');
    assert.equal(scanner.anchorsUsed, '_J');
    // At the very start and end of the text, and where the anchor's place is the text's first or last character.
    assert.deepEqual(scanned('x-y_zzzz abcdef- J=secret', scanner, 'J=_:-'), ['0:8', '17:25', '9:16']);
    assert.deepEqual(scanned('abcdef-', scanner, 'J=_:-'), ['0:7']);
    assert.deepEqual(scanned('_zzzz y_zzzz J', scanner, 'J=_:-'), []);
  });

  it('finds values looked for at rare letters scanned on their own, and in the pass when those letters cover not all, as indexOf does, in 500 random texts', () => {
    const random = new Random(2831);
    const alphabet = [...'ab0QZx-\n中'];
    const word = (min: number, max: number): string => Array.from({ length: random.int(min, max) }, () => random.pick(alphabet)).join('');
    let ownScanned = 0;
    let passed = 0;
    for (let round = 0; round < 500; round++) {
      const values = Array.from({ length: random.int(1, 6) }, () => word(6, 20));
      const parts: string[] = [];
      for (let p = random.int(0, 12); p > 0; p--) parts.push(random.chance(0.4) ? random.pick(values) : word(0, 12));
      const text = parts.join('');
      const scanner = new ValueScanner(values, '-', 'QZx');
      if (scanner.ownScans === '') passed++;
      else ownScanned++;
      assert.deepEqual(scanned(text, scanner, '-'), naive(text, values), `round ${round}: ${JSON.stringify({ values, text, ownScans: scanner.ownScans })}`);
    }
    assert.ok(ownScanned > 100 && passed > 20, `own scans in ${ownScanned} rounds, the pass in ${passed}`);
  });

  it('chooses the rare letters that cover the most values (the rarer on a tie), at most 3, and none when they would leave a value to the pass', () => {
    assert.equal(new ValueScanner(['aQbZc1', 'dZe2f3', 'gQh4i5'], '', 'QZx').ownScans, 'QZ');
    assert.equal(new ValueScanner(['aZb1c2', 'dZe2f3', 'gQh4i5'], '', 'QZx').ownScans, 'ZQ');
    assert.equal(new ValueScanner(['aQ1234', 'bZ1234', 'cx1234', 'dV1234'], '', 'QZxV').ownScans, '');
    assert.equal(new ValueScanner(['aQ1234', 'plain1'], '', 'QZx').ownScans, '');
    // A letter that ends the value has no character after it: no place to look the value up by.
    assert.equal(new ValueScanner(['12345Q'], '', 'QZx').ownScans, '');
    const scanner = new ValueScanner(['aQbZc1', 'dZe2f3'], '', 'QZx');
    assert.deepEqual(scanned('aQbZc1 dZe2f3dZe2f3', scanner), ['0:6', '13:19', '7:13']);
  });

  it('takes the pass for the values looked for at rare letters where those letters are common (base64), finding every place all the same', () => {
    const random = new Random(2832);
    const values = ['aQbZc1dd', 'eZf2g3hh', 'Q'.repeat(7) + 'x'];
    const scanner = new ValueScanner(values, '', 'QZx');
    assert.equal(scanner.ownScans, 'QZ');
    for (let round = 0; round < 200; round++) {
      const parts: string[] = [];
      // Dense: a letter in every few characters, past the budget of places; sparse: a few values in plain text.
      const dense = round % 2 === 0;
      for (let p = random.int(1, 40); p > 0; p--) parts.push(random.chance(0.2) ? random.pick(values) : random.string(random.int(0, dense ? 6 : 600), dense ? 'QZx0' : 'ab01 '));
      const text = parts.join('');
      assert.deepEqual(scanned(text, scanner), naive(text, values), `round ${round}: ${JSON.stringify(text)}`);
    }
  });
});
