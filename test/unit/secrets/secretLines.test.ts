import assert from 'node:assert/strict';
import { marker, Redactor } from '../../../extension/src/core/secrets/redaction';
import { RARE_LETTERS, secretLines, VALUE_ANCHORS } from '../../../extension/src/core/secrets/secretLines';
import { isSecretName } from '../../../extension/src/core/secrets/secretNames';
import { ValueScanner } from '../../../extension/src/core/secrets/valueScanner';
import { Random } from '../../soak/random';

// Fake secrets built at run time, so no scanner mistakes this file for a leak.
const repeat = (chars: string, n: number): string => chars.repeat(Math.ceil(n / chars.length)).slice(0, n);
const ghp = `ghp_${repeat('aB3dE6', 36)}`;
const npm = `npm_${repeat('q1W2e3', 36)}`;
const aws = `AKIA${repeat('IOSFODNN7EXAMPL', 16)}`;
/** Secret values looked for at each anchor's places (`-`, `J`, `=`, `_`, `:`) and in the pass (none, or one only at the end). */
const env = {
  DEPLOY_TOKEN: 'plain-looking-value-42',
  MULTI_LINE_SECRET: 'first-half\nsecond-half',
  API_KEY: 'aJw8Kz2Qp',
  DB_PASSWORD: 'c2VjcmV0=x9',
  SESSION_TOKEN: 'sess_9f8e7d',
  REDIS_AUTH: 'redis:pw9z8y',
  PLAIN_SECRET: 'Plain9Value7Zq',
  TRAILING_SECRET: 'trailing7-',
};

/** Pieces of output, secret and not, that the random texts are made of. */
const SECRETS = [
  ghp,
  `github_pat_${repeat('11AbC_d3', 82)}`,
  `sk-proj-${repeat('Ab1Cd2', 48)}`,
  `sk-ant-api03-${repeat('Zy9-x8', 40)}`,
  aws,
  `ASIA${repeat('Q7RT2X', 16)}`,
  `AIza${repeat('SyA-b_9', 35)}`,
  `glpat-${repeat('xY7z', 20)}`,
  `xoxb-${repeat('1234-abcd', 30)}`,
  npm,
  `sk_live_${repeat('4eC39HqLyjWD', 24)}`,
  `eyJ${repeat('hbGciOiJIUzI1NiJ9', 20)}.eyJ${repeat('zdWIiOiIxMjM0NTY3ODkwIn0', 24)}.${repeat('SflKxwRJSMeKKF2QT4fwpM', 30)}`,
  `-----BEGIN RSA PRIVATE KEY-----\n${repeat('MIIEpAIBAAKCAQEA', 64)}\n-----END RSA PRIVATE KEY-----`,
  `-----BEGIN OPENSSH PRIVATE KEY-----\n${repeat('b3BlbnNzaC1rZXk', 40)}`,
  'https://deploy:s3cr3t-pass@git.example.com/app.git',
  'postgres://app:pa$$w0rd!@db:5432/app',
  'x:y:git+ssh://u:p:q@host/x',
  'a:\x1b[0mb https://tok:\x1b[31mabc@h',
  'redis://:%21secret%25@cache',
  `Authorization: Bearer ${repeat('abcDEF123._-', 40)}`,
  `token ${repeat('Zz9.', 24)}`,
  'DATABASE_PASSWORD=correct-horse-battery',
  '"clientSecret": "abc123def456"',
  'api_key:\n  zzzz-yyyy-xxxx',
  'API_KEY \r\n= hunter2hunter2',
  '"auth_token"\n \t=\n\n\n"opensesame1"',
  'auth_token\n \t=\n\n\nopensesame1',
  "'db.password'\t:\t'swordfish-9'",
  ...Object.values(env),
];
const PLAIN = [
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
  '550e8400-e29b-41d4-a716-446655440000',
  'https://registry.npmjs.org/@types%2fnode',
  'warning: unused variable',
  '+  const progressToken = createToken();',
  '"jsonwebtoken": "^9.0.2",',
  'PASS src/app.test.ts',
  'FAIL',
  'résumé 中文 ✓ →',
  'desk-0123456789012345678901234',
  'pkg-12 --flag=value',
  '-----BEGIN CERTIFICATE-----',
  'a=b c:d',
  'localhost:8080/x 12:34:56 C:\\dir a:b:c@d',
  '\x1b[33mwarning:\x1b[0m x',
  'https://u:p\u00a0x@h',
];
const GLUE = ['', ' ', '\n', '\r\n', '\t', ',', '→', '中', '\u00a0', '\n\n'];

/** The rules over the whole text (a settings pattern that never matches turns the scan off): what redact must equal. */
const everyRule = new Redactor({ env, extraPatterns: ['(?!)'] });
const scanned = new Redactor({ env });

/** Secret values of random letters and digits, as most tokens are: looked for at rare letters' places, not in the pass. */
const randomEnv = { RANDOM_TOKEN: 'k8Qv2Lm9Zr4T', OTHER_SECRET: 'Zx81mw0p2hQs', THIRD_KEY: 'Wqqq7Ug3yyT' };

/** `rounds` random texts of secrets (and `values`), plain output and glue: redact must equal the rules over the whole text. */
function assertSameAsEveryRule(seed: number, rounds: number, values: readonly string[], scanning: Redactor, reference: Redactor): void {
  const random = new Random(seed);
  for (let round = 0; round < rounds; round++) {
    const parts: string[] = [];
    const pieces = random.int(1, 12);
    for (let p = 0; p < pieces; p++) parts.push(random.pick(random.chance(0.4) ? [...SECRETS, ...values] : PLAIN), random.pick(GLUE));
    const text = parts.join('');
    assert.deepEqual(scanning.redact(text), reference.redact(text), `round ${round}: ${JSON.stringify(text)}`);
  }
}

describe('secretLines', () => {
  it('finds the same secrets as the rules over the whole text, in 400 random texts of secrets, plain output and glue', () => {
    assertSameAsEveryRule(28, 400, [], scanned, everyRule);
  });

  it('finds random letter-and-digit values, looked for at rare letters scanned on their own, as the rules over the whole text do, in 300 random texts', () => {
    const values = Object.values(randomEnv);
    assert.notEqual(new ValueScanner(values, VALUE_ANCHORS, RARE_LETTERS).ownScans, '');
    assertSameAsEveryRule(29, 300, values, new Redactor({ env: randomEnv }), new Redactor({ env: randomEnv, extraPatterns: ['(?!)'] }));
    assert.equal(new Redactor({ env: randomEnv }).redact(`x ${values.join(' → ')}\n`).count, 3);
  });

  it('returns nothing for output without a prefix, a secret-named key or a secret value, and the text itself from redact', () => {
    const text = `${PLAIN.filter((line) => !/Token|token|desk/.test(line)).join('\n')}\n`;
    assert.deepEqual(secretLines(text, new ValueScanner(['plain-looking-value-42'])), []);
    assert.equal(scanned.redact(text).text, text);
  });

  it('returns whole lines, joined when they touch', () => {
    const text = `one\ntwo ${ghp}\n${npm} three\nfour\nfive ${aws}`;
    const lines = secretLines(text);
    assert.deepEqual(
      lines.map(([start, end]) => text.slice(start, end)),
      [`two ${ghp}\n${npm} three`, `five ${aws}`],
    );
  });

  it('finds a token at the very start and the very end of a piece (a log batch boundary)', () => {
    const stream = new Redactor().stream();
    assert.equal(stream.push(`${ghp}\nmiddle\n${npm}`), `${marker('GitHub token')}\nmiddle\n${marker('npm token')}`);
    assert.equal(stream.push(aws), marker('AWS access key'));
    assert.equal(stream.count, 3);
  });

  it('finds adjacent tokens, each once', () => {
    const { text, count } = scanned.redact(`${ghp} ${npm},${aws}\n${ghp}`);
    assert.equal(text, `${marker('GitHub token')} ${marker('npm token')},${marker('AWS access key')}\n${marker('GitHub token')}`);
    assert.equal(count, 4);
  });

  it('finds tokens between non-ASCII characters', () => {
    const { text, count } = scanned.redact(`→${ghp}中文 é${aws}✓ «plain-looking-value-42»`);
    assert.equal(text, `→${marker('GitHub token')}中文 é${marker('AWS access key')}✓ «${marker('value of DEPLOY_TOKEN')}»`);
    assert.equal(count, 3);
  });

  it('finds an assignment whose separator is on another line, and a secret value that spans lines', () => {
    const { text, count } = scanned.redact('x\napi_key\n:\n hunter2hunter2\ny\nfirst-half\nsecond-half\n');
    assert.equal(text, `x\napi_key\n:\n ${marker('value of api_key')}\ny\n${marker('value of MULTI_LINE_SECRET')}\n`);
    assert.equal(count, 2);
  });

  it('finds an assignment for every key ending in any case, quoted or not, with up to 3 spaces or newlines (a Unicode space too) before the separator, at the very start of a text too', () => {
    const endings = ['token', 'secret', 'passwd', 'password', 'passphrase', 'pass', 'auth', 'credential', 'connection_string', 'pwd', 'key'];
    const names = endings.flatMap((ending) => [ending, `db_${ending}`, `DB_${ending.toUpperCase()}`, `db${ending[0]!.toUpperCase()}${ending.slice(1)}`]);
    const spacings = [['', '='], ['', ':'], [' ', '= '], ['  \n', ':'], ['\t\r\n', '='], ['\u00a0', '='], ['\n\n\n\n', '=']];
    for (const name of names) {
      for (const quote of ['', '"', "'"]) {
        for (const [before, separator] of spacings) {
          for (const text of [`${quote}${name}${quote}${before}${separator}hunter2hunter2`, `x ${quote}${name}${quote}${before}${separator} "hunter2hunter2"\n`]) {
            const redacted = scanned.redact(text);
            assert.deepEqual(redacted, everyRule.redact(text), JSON.stringify(text));
            // Of the bare endings only the password words count, and four newlines are one too many.
            const bare = endings.includes(name) && !name.includes('_');
            const counts = isSecretName(name) && (!bare || /^passw|^passphrase$/.test(name)) && before !== '\n\n\n\n';
            assert.equal(redacted.count, counts ? 1 : 0, JSON.stringify(text));
          }
        }
      }
    }
  });

  it('finds AWS and Google keys, bearer credentials and private keys right at the start and the end of a text, and after look-alikes', () => {
    const google = `AIza${repeat('SyA-b_9', 35)}`;
    const bearer = `Bearer ${repeat('abcDEF123._-', 24)}`;
    const basic = `Basic ${repeat('dXNlcjpwYXNz', 24)}`;
    const key = `------BEGIN EC PRIVATE KEY-----\n${repeat('MHcCAQEEIB', 8)}\n-----END EC PRIVATE KEY-----`;
    const texts = [aws, `x ${aws}`, `FAIL AKIAxIA ${aws}`, google, `AIzb ${google}`, `za ${google}`, `Iza ${google} za`, bearer, `Bea Bearerx ${bearer}`, `${bearer}Basic`, basic, `Basi ${basic}`, `Bearer ${basic}`, key, `x${key}`, `${aws}\n${google}`];
    for (const text of texts) {
      const expected = everyRule.redact(text);
      assert.ok(expected.count > 0, text);
      assert.deepEqual(scanned.redact(text), expected, text);
    }
  });

  it('looks for a URL password at the `:` before it: scoped packages alone hold nothing, a URL password after them, after other `:` and inside colored text is found', () => {
    const npmLs = 'app@1.0.0 /home/dev/app\n├── @types/node@20.1.0\n└─┬ @scope/pkg@2.0.0\n  └── left-pad@1.3.0\n';
    assert.deepEqual(secretLines(npmLs), []);
    for (const text of [
      `${npmLs}origin https://deploy:s3cr3t-pass@git.example.com/app.git`,
      'a://:p@h',
      `@x ${'@'.repeat(40)} redis://:%21secret%25@cache`,
      '12:34:56 x:y:https://u:p:q@h',
      'C:\\dir https://u:\x1b[1mpé中@h',
      'https://u:p@',
    ]) {
      const expected = everyRule.redact(text);
      assert.equal(expected.count, 1, text);
      assert.deepEqual(scanned.redact(text), expected, text);
    }
  });

  it('finds every secret value, whether looked for at an anchor or in the pass, at the very start and end of a text, twice in a row, and between non-ASCII characters', () => {
    for (const [name, value] of Object.entries(env)) {
      for (const text of [value, `x ${value}`, `${value}\n`, `${value}${value}`, `中${value}→`]) {
        const expected = everyRule.redact(text);
        assert.ok(expected.text.includes(marker(`value of ${name}`)), `${name}: ${JSON.stringify(text)}`);
        assert.deepEqual(scanned.redact(text), expected, `${name}: ${JSON.stringify(text)}`);
      }
    }
  });

  it('redacts a private-key block without an END to the end of the text', () => {
    const { text, count } = scanned.redact(`ok\n-----BEGIN EC PRIVATE KEY-----\n${repeat('MHcCAQEEIB', 60)}\nmore`);
    assert.equal(text, `ok\n${marker('private key')}`);
    assert.equal(count, 1);
  });
});
