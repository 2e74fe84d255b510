#!/usr/bin/env node
// `npm run bench`: installs what is missing (npm dependencies, the build, the real VS Code), then
// prints every benchmark's figures. Extra arguments pick benchmarks: chain, strategies, copilot, harness, ready, long, servers, output, process, ledger, safety, stall, questions, sandbox.
import { buildAndRun } from './buildAndRun.mjs';

buildAndRun('test/bench/run.ts');
