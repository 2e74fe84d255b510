#!/usr/bin/env node
// `npm run soak`: installs what is missing (npm dependencies, the build, the real VS Code), then
// runs the reliability suite at full size and prints its table. Options (test/soak/run.ts):
// --seed N to replay, --short for the size npm test runs, --only load,hostile,faults,isolation.
import { buildAndRun } from './buildAndRun.mjs';

buildAndRun('test/soak/run.ts');
