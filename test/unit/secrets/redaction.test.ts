import assert from 'node:assert/strict';
import { marker, Redactor, redactorFor } from '../../../extension/src/core/secrets/redaction';

// Fake secrets built at run time, so no scanner mistakes this file for a leak.
const repeat = (chars: string, n: number): string => chars.repeat(Math.ceil(n / chars.length)).slice(0, n);
const ghp = `ghp_${repeat('aB3dE6', 36)}`;
const pat = `github_pat_${repeat('11AbC_d3', 82)}`;
const openai = `sk-proj-${repeat('Ab1Cd2', 48)}`;
const anthropic = `sk-ant-api03-${repeat('Zy9-x8', 40)}`;
const aws = `AKIA${repeat('IOSFODNN7EXAMPL', 16)}`;
const glpat = `glpat-${repeat('xY7z', 20)}`;
const slack = `xoxb-${repeat('1234-abcd', 30)}`;
const npm = `npm_${repeat('q1W2e3', 36)}`;
const jwt = `eyJ${repeat('hbGciOiJIUzI1NiJ9', 20)}.eyJ${repeat('zdWIiOiIxMjM0NTY3ODkwIn0', 24)}.${repeat('SflKxwRJSMeKKF2QT4fwpM', 30)}`;

describe('Redactor', () => {
  const redactor = new Redactor();

  const formats: Array<[string, string]> = [
    [ghp, 'GitHub token'],
    [pat, 'GitHub token'],
    [openai, 'OpenAI key'],
    [anthropic, 'Anthropic key'],
    [aws, 'AWS access key'],
    [glpat, 'GitLab token'],
    [slack, 'Slack token'],
    [npm, 'npm token'],
    [jwt, 'JWT'],
  ];
  for (const [secret, kind] of formats) {
    it(`replaces a ${kind} by a marker naming it, and counts it`, () => {
      const { text, count } = redactor.redact(`before ${secret} after\n`);
      assert.equal(text, `before ${marker(kind)} after\n`);
      assert.equal(count, 1);
    });
  }

  it('replaces a whole private-key block, whatever its kind', () => {
    const block = ['-----BEGIN OPENSSH PRIVATE KEY-----', repeat('b3BlbnNzaC1rZXktdjEAAAAABG5vbmU', 70), repeat('AAAAC3NzaC1lZDI1NTE5AAAAI', 70), '-----END OPENSSH PRIVATE KEY-----'].join('\n');
    const { text, count } = redactor.redact(`key:\n${block}\ndone`);
    assert.equal(text, `key:\n${marker('private key')}\ndone`);
    assert.equal(count, 1);
  });

  it('keeps the user of a URL and replaces its password', () => {
    const { text, count } = redactor.redact('origin\thttps://deploy:s3cr3t-pass@git.example.com/team/app.git (fetch)');
    assert.equal(text, `origin\thttps://deploy:${marker('URL password')}@git.example.com/team/app.git (fetch)`);
    assert.equal(count, 1);
  });

  it('names a token inside a URL by its format, once', () => {
    const { text, count } = redactor.redact(`https://x-access-token:${ghp}@github.com/o/r.git`);
    assert.equal(text, `https://x-access-token:${marker('GitHub token')}@github.com/o/r.git`);
    assert.equal(count, 1);
  });

  it('replaces the values of secret-named assignments (.env, printenv, JSON, YAML) and keeps the names', () => {
    const input = ['DATABASE_PASSWORD=correct-horse-battery', 'export STRIPE_SECRET="whsec_abcdef123456"', '"clientSecret": "abc123def456"', 'api_key: zzzz-yyyy-xxxx', 'PGPASSWORD=hunter22'].join('\n');
    const { text, count } = redactor.redact(input);
    assert.equal(
      text,
      [
        `DATABASE_PASSWORD=${marker('value of DATABASE_PASSWORD')}`,
        `export STRIPE_SECRET="${marker('value of STRIPE_SECRET')}"`,
        `"clientSecret": "${marker('value of clientSecret')}"`,
        `api_key: ${marker('value of api_key')}`,
        `PGPASSWORD=${marker('value of PGPASSWORD')}`,
      ].join('\n'),
    );
    assert.equal(count, 5);
  });

  it('replaces the value of a bare password key (.env, YAML) and leaves other bare names, mostly prose and code (token, secret, auth, key)', () => {
    const input = ['password=correct-horse-battery', 'PASSWORD: hunter2hunter2', '"passphrase": "abc123def456"', 'passwd=abcdefgh1234', 'a secret: environment', 'token: holder-name', 'auth: dXNlcjpwYXNz', 'key: sortable-name'].join('\n');
    const { text, count } = redactor.redact(input);
    assert.equal(
      text,
      [
        `password=${marker('value of password')}`,
        `PASSWORD: ${marker('value of PASSWORD')}`,
        `"passphrase": "${marker('value of passphrase')}"`,
        `passwd=${marker('value of passwd')}`,
        'a secret: environment',
        'token: holder-name',
        'auth: dXNlcjpwYXNz',
        'key: sortable-name',
      ].join('\n'),
    );
    assert.equal(count, 4);
  });

  it('leaves names that only look secret (ASKPASS, tokenizers, max_tokens, public and primary keys, short values)', () => {
    const input = [
      'GIT_ASKPASS=/usr/lib/code/askpass.sh',
      'TOKENIZERS_PARALLELISM=false',
      'max_tokens: 4096',
      'PUBLIC_KEY=ssh-ed25519.AAAAC3Nza',
      'primary_key: user_id_column',
      'AWS_REGION=eu-west-1',
      'PASSWORD=1234',
      'OLDPWD=/home/dev/project',
    ].join('\n');
    assert.deepEqual(redactor.redact(input), { text: input, count: 0 });
  });

  it('leaves code, placeholders and lockfile versions under secret-named keys alone (the false positives of git log -p and package-lock.json)', () => {
    const input = [
      '+  withProgressToken: boolean) {',
      '+  const progressToken = createToken();',
      '   toolInvocationToken: options.toolInvocationToken,',
      '+  const progressToken = extra._meta?.progressToken;',
      '   apiKey: undefined,',
      '   "jsonwebtoken": "^9.0.2",',
      '   "path-key": "3.1.1",',
      'GITHUB_TOKEN=${GITHUB_TOKEN}',
      'API_KEY=<your-key-here>',
      'password: ********',
      'AWS_SECRET_ACCESS_KEY=process.env.AWS_SECRET',
    ].join('\n');
    assert.deepEqual(redactor.redact(input), { text: input, count: 0 });
  });

  it('leaves hashes, UUIDs, base64 images and versions alone', () => {
    const input = [
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
      'Author: Dev <dev@example.com>',
      '550e8400-e29b-41d4-a716-446655440000',
      'sha512-Z4aQxQnQZ9v8oQ3gX9ZbYzGmYz0eX2uR1Y0bT6WqQ8r1lO9zX5b0Z2q4m3kPp==',
      `data:image/png;base64,${repeat('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk', 400)}`,
      'asset main.js 1.2 MiB [emitted] (name: main)',
      'task-runner-and-some-long-hyphenated-name',
      'desk-0123456789012345678901234',
    ].join('\n');
    assert.deepEqual(redactor.redact(input), { text: input, count: 0 });
  });

  it('replaces a bearer credential after its scheme', () => {
    const { text, count } = redactor.redact(`Authorization: Bearer ${repeat('abcDEF123._-', 40)}`);
    assert.equal(text, `Authorization: Bearer ${marker('credential')}`);
    assert.equal(count, 1);
  });

  it('replaces the values of the secret-named variables of its environment wherever they appear', () => {
    const withEnv = new Redactor({ env: { MY_SERVICE_TOKEN: 'plain-looking-value-42', HOME: '/home/dev', EDITOR: 'vim' } });
    const { text, count } = withEnv.redact('echo: plain-looking-value-42 in /home/dev with vim');
    assert.equal(text, `echo: ${marker('value of MY_SERVICE_TOKEN')} in /home/dev with vim`);
    assert.equal(count, 1);
  });

  it('adds the patterns of the settings, skipping and naming those that do not compile', () => {
    const custom = new Redactor({ extraPatterns: ['ACME-[0-9]{6}', '([unclosed'] });
    assert.deepEqual(custom.redact('id ACME-123456 ok'), { text: `id ${marker('custom pattern')} ok`, count: 1 });
    assert.deepEqual(custom.invalidPatterns, ['([unclosed']);
  });

  it('redacts nothing when the setting is off', () => {
    const off = new Redactor({ enabled: false });
    assert.deepEqual(off.redact(ghp), { text: ghp, count: 0 });
  });

  it('redactorFor builds once per settings and follows a change', () => {
    const a = redactorFor({ redactSecrets: true, redactPatterns: [] });
    assert.equal(redactorFor({ redactSecrets: true, redactPatterns: [] }), a);
    const off = redactorFor({ redactSecrets: false, redactPatterns: [] });
    assert.notEqual(off, a);
    assert.equal(off.redact(ghp).count, 0);
  });
});

describe('RedactionStream', () => {
  it('redacts a private-key block split across pieces, and counts it once', () => {
    const stream = new Redactor().stream();
    const pieces = ['start\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA', '\nbody-line-two\n', 'last\n-----END RSA PRIVATE KEY-----\nafter\n'];
    const out = pieces.map((piece) => stream.push(piece)).join('');
    assert.ok(!out.includes('MIIEpAIBAAKCAQEA') && !out.includes('body-line-two') && !out.includes('last\n'), out);
    assert.ok(out.startsWith('start\n') && out.endsWith('after\n'), out);
    assert.equal(stream.count, 1);
  });

  it('opens a block on a piece that holds other secrets too, and none when the setting is off', () => {
    const stream = new Redactor().stream();
    assert.equal(stream.push(`${ghp}\n-----BEGIN EC PRIVATE KEY-----\n`), `${marker('GitHub token')}\n${marker('private key')}`);
    assert.equal(stream.push('MHcCAQEEIB\n-----END EC PRIVATE KEY-----\nok'), `${marker('private key')}\nok`);
    const off = new Redactor({ enabled: false }).stream();
    const pieces = ['-----BEGIN EC PRIVATE KEY-----\n', 'MHcCAQEEIB\n'];
    assert.deepEqual(pieces.map((piece) => off.push(piece)), pieces);
  });

  it('peek redacts a screen inside an open block without moving the stream', () => {
    const stream = new Redactor().stream();
    stream.push('-----BEGIN PRIVATE KEY-----\n');
    assert.equal(stream.peek('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'), marker('private key'));
    assert.equal(stream.push('-----END PRIVATE KEY-----\nok'), `${marker('private key')}\nok`);
  });
});
