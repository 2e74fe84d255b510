/**
 * The worker thread lineParser.ts's WorkerParser starts (bundled as dist/parseWorker.js): loads
 * and warms the grammars once, then parses each line it is sent within PARSE_BOUND_MS, off the
 * extension host's loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './lineParser';
import { inProcessParser } from './lineParser';
import { ShellGrammars, type GrammarPaths } from './shellGrammars';

const port = parentPort;
if (!port) throw new Error('parseWorker.ts runs as a worker thread (lineParser.ts starts it)');
const send = (message: FromWorker): void => port.postMessage(message);

new ShellGrammars(workerData as GrammarPaths).load().then(
  (grammars) => {
    const parser = inProcessParser(grammars);
    port.on('message', ({ id, grammar, line }: ToWorker) => {
      parser.parse(grammar, line).then(
        (parsed) => send({ kind: 'parsed', id, parsed }),
        (error: unknown) => send({ kind: 'failed', id, message: error instanceof Error ? error.message : String(error) }),
      );
    });
    send({ kind: 'ready', loadMs: grammars.loadMs });
  },
  (error: unknown) => send({ kind: 'loadFailed', message: `the shell grammars could not be loaded: ${error instanceof Error ? error.message : String(error)}` }),
);
