// `npm run check`'s type check: one `tsc` per tsconfig (the Worker, the Node tooling, the widget,
// the demo, the console and its tests), as many at a time as there are cores, since each runs on
// one. Plain JavaScript, so it starts without a loader.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const PROJECTS = ['tsconfig.json', 'tsconfig.node.json', 'widget/tsconfig.json', 'demo/tsconfig.json', 'console/tsconfig.json', 'console/tsconfig.test.json'];

/** Runs tsc on one tsconfig; answers its exit code, its output printed whole once it ends so projects never interleave. */
function typecheck(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (output) process.stdout.write(`tsc -p ${project}\n${output}`);
      resolve(code ?? 1);
    });
  });
}

const queue = [...PROJECTS];
let failed = 0;
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) if ((await typecheck(project)) !== 0) failed++;
  }),
);
if (failed) {
  console.error(`${failed} of ${PROJECTS.length} type checks failed`);
  // Not process.exit(): output still on its way through a pipe would be cut off.
  process.exitCode = 1;
}
