/**
 * Ready lines, local URLs and "port in use" on output recorded from real tools (test/fixtures/
 * servers/: Vite 7, Django 3.2's runserver, python -m http.server, tsc --watch, esbuild --watch,
 * Node 20's EADDRINUSE; rendered as the terminal shows them), and on lines quoted from the
 * sources of tools these machines cannot install (Next.js, CRA, uvicorn, Flask, Puma, ASP.NET).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { commandKey } from '../../../extension/src/core/servers/commandKey';
import { findLocalUrls, findPortInUse, findReadyLine, isShortcutHint, portFromCommand } from '../../../extension/src/core/servers/serverOutput';

const recorded = (name: string): string => readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'servers', name), 'utf8');

describe('server output: ready lines, URLs, ports in use', () => {
  it('Vite: its Local line, its URL; the Network hint is not a URL; "press h + enter" is a shortcut hint, not a question', () => {
    const out = recorded('vite-7-dev.txt');
    assert.deepEqual(findReadyLine(out, undefined, 'npm run dev'), { line: '➜  Local:   http://localhost:5199/', kind: 'server', tool: 'Vite / Rsbuild / serve' });
    assert.deepEqual(findLocalUrls(out), [{ url: 'http://localhost:5199/', port: 5199 }]);
    assert.equal(isShortcutHint('  ➜  press h + enter to show help'), true);
    assert.equal(isShortcutHint('Something is already running on port 3000. Would you like to run the app on another port instead? › (Y/n)'), false);
    assert.equal(findPortInUse(out, 'npm run dev'), undefined);
  });

  it('Django: its ready line comes with the URL (printed before the bind: a server line, never enough alone)', () => {
    const out = recorded('django-3.2-runserver.txt');
    assert.deepEqual(findReadyLine(out, undefined, 'python3 manage.py runserver 8765'), { line: 'Starting development server at http://127.0.0.1:8765/', kind: 'server', tool: 'Django' });
    assert.deepEqual(findLocalUrls(out), [{ url: 'http://127.0.0.1:8765/', port: 8765 }]);
  });

  it('Django with the port taken: the port comes from the URL printed before the error', () => {
    assert.deepEqual(findPortInUse(recorded('django-3.2-runserver-port-in-use.txt'), 'python3 manage.py runserver 8766'), { port: 8766, line: 'Error: That port is already in use.' });
  });

  it('python -m http.server: the wildcard address becomes localhost; with the port taken the port comes from the command', () => {
    const out = recorded('python-http-server.txt');
    assert.equal(findReadyLine(out, undefined, 'python3 -m http.server')?.tool, 'python -m http.server');
    assert.deepEqual(findLocalUrls(out), [{ url: 'http://localhost:43727/', port: 43727 }]);
    assert.deepEqual(findPortInUse(recorded('python-http-server-port-in-use.txt'), 'python3 -m http.server 8766'), { port: 8766, line: 'OSError: [Errno 98] Address already in use' });
    assert.deepEqual(findLocalUrls('Serving HTTP on :: port 8000 (http://[::]:8000/) ...'), [{ url: 'http://localhost:8000/', port: 8000 }]);
    assert.deepEqual(findLocalUrls('Serving HTTP on 192.168.1.20 port 8000 (http://192.168.1.20:8000/) ...'), [], 'another interface is never probed');
  });

  it('Node EADDRINUSE and Vite --strictPort: the port from the error line', () => {
    assert.deepEqual(findPortInUse(recorded('node-20-eaddrinuse.txt'), 'node server.js'), { port: 8766, line: 'Error: listen EADDRINUSE: address already in use :::8766' });
    assert.deepEqual(findPortInUse(recorded('vite-7-strict-port-in-use.txt'), 'npx vite --port 5199 --strictPort'), { port: 5199, line: 'Error: Port 5199 is already in use' });
  });

  it('watchers: tsc --watch and esbuild --watch lines are watcher lines', () => {
    assert.deepEqual(findReadyLine(recorded('tsc-5-watch.txt'), undefined, 'npx tsc -w'), { line: '[4:00:10 PM] Found 0 errors. Watching for file changes.', kind: 'watcher', tool: 'tsc --watch' });
    assert.equal(findReadyLine(recorded('esbuild-watch.txt'), undefined, 'node build.mjs --watch')?.tool, 'esbuild --watch');
  });

  it('tools quoted from their sources', () => {
    const lines: [string, string][] = [
      ['   ▲ Next.js 15.0.0\n   - Local:        http://localhost:3000\n ✓ Ready in 1234ms', 'Vite / Rsbuild / serve'],
      [' ✓ Ready in 2.1s', 'Next.js'],
      ['Compiled successfully!\n\nYou can now view app in the browser.\n\n  Local:            http://localhost:3000', 'Create React App'],
      ['INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)', 'uvicorn'],
      [' * Running on http://127.0.0.1:5000', 'Werkzeug / Flask'],
      ['* Listening on http://127.0.0.1:3000', 'Puma / Rails'],
      ['      Now listening on: https://localhost:5001', 'ASP.NET'],
      ['webpack 5.90.0 compiled successfully in 320 ms', 'webpack --watch'],
      ['[nodemon] watching path(s): *.*', 'nodemon'],
    ];
    for (const [text, tool] of lines) assert.equal(findReadyLine(text, undefined, 'npm run dev -- --watch')?.tool, tool, text);
    assert.deepEqual(findLocalUrls('* Listening on tcp://0.0.0.0:3000'), [{ url: 'http://localhost:3000/', port: 3000 }]);
    assert.deepEqual(findLocalUrls('INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)'), [{ url: 'http://127.0.0.1:8000/', port: 8000 }]);
    assert.deepEqual(findLocalUrls('open https://localhost:5001/swagger. then http://[::1]:9000/x'), [
      { url: 'https://localhost:5001/swagger', port: 5001 },
      { url: 'http://[::1]:9000/x', port: 9000 },
    ]);
  });

  it("a caller's readyPattern wins over the known lines; nothing matched is undefined", () => {
    assert.deepEqual(findReadyLine('booting\nREADY: workers=4\nLocal: http://localhost:1/', /^READY:/, 'npm start'), { line: 'READY: workers=4', kind: 'pattern' });
    assert.equal(findReadyLine('booting', /^READY:/, 'npm start'), undefined);
    assert.equal(findReadyLine('compiling...', undefined, 'npm start'), undefined);
  });

  it('ports from command lines', () => {
    const cases: [string, number | undefined][] = [
      ['vite --port 5173', 5173],
      ['python3 manage.py runserver 0.0.0.0:8001', 8001],
      ['python3 -m http.server 9000', 9000],
      ['next dev -p 3001', 3001],
      ['uvicorn app:app --port=8080', 8080],
      ['PORT=4000 npm start', 4000],
      ['gunicorn --bind 127.0.0.1:8002 app:app', 8002],
      ['python3 -m http.server 8003 --bind 127.0.0.1', 8003],
      ['python3 -m http.server --bind 127.0.0.1', undefined],
      ['npm run dev', undefined],
    ];
    for (const [command, port] of cases) assert.equal(portFromCommand(command), port, command);
  });
});

describe('command keys (the duplicate rule)', () => {
  it('equivalent spellings share a key', () => {
    const same: [string, string][] = [
      ['npm run dev', '  npm   run dev  '],
      ['npm start', 'npm run start'],
      ['npm run-script dev', 'npm run dev'],
      ['yarn run dev', 'yarn dev'],
      ['pnpm run dev', 'pnpm dev'],
      ['python manage.py runserver', 'python3 manage.py runserver'],
      ['./manage.py runserver', 'python3 manage.py runserver'],
      ['python3 ./manage.py runserver', 'python manage.py runserver'],
      ['npm run dev &', 'npm run dev'],
      ['A=1 B=2 npm run dev', 'B=2 A=1 npm run dev'],
    ];
    for (const [a, b] of same) assert.equal(commandKey(a), commandKey(b), `${a} ~ ${b}`);
  });

  it('what changes the server keeps keys apart', () => {
    const different: [string, string][] = [
      ['npm run dev', 'npm run dev -- --port 3001'],
      ['PORT=3001 npm run dev', 'npm run dev'],
      ['npm run dev', 'npm run preview'],
      ['vite', 'vite --host'],
      ['echo "a  b"', 'echo "a b"'],
    ];
    for (const [a, b] of different) assert.notEqual(commandKey(a), commandKey(b), `${a} vs ${b}`);
  });
});
