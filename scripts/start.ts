/**
 * `npm start`: the collector under `wrangler dev` on 127.0.0.1:8787 with the local D1 migrated,
 * a `dev` project whose keys are made on first start, kept in .dev-keys.json and printed, and
 * the demo chat app on 127.0.0.1:5173 sending its traces and feedback there.
 */
import { join } from 'node:path';
import { checkCorpus, corpusFromEnv } from '../demo/corpus/index.ts';
import { generatorFromEnv } from '../demo/server/generate.ts';
import { DEMO_PORT, startDemo } from '../demo/server/index.ts';
import { buildConsole } from './build-console.ts';
import { buildWidget } from './build-widget.ts';
import { failInOneLine, parseFlags, wholeNumber } from './cli.ts';
import { localCollectorPort } from './collector-target.ts';
import { DEV_KEYS_FILE, ensureDevProject } from './dev-project.ts';
import { holdUntakenPort, refuseTakenPort } from './free-port.ts';
import { migrateWhenBehind, withLocalD1 } from './local-d1-sql.ts';
import { startStoppably } from './start-stop.ts';
import { devVars, refuseMistypedVars, tomlVars } from './worker-vars-check.ts';
import { ROOT, startDev } from './wrangler.ts';

failInOneLine();
// It takes no flags (its settings are environment variables): --help, or a flag, would otherwise start it all.
parseFlags({}, 'npm start (settings in the environment: PORT, DEMO_PORT, DEMO_CORPUS, DEMO_LLM_*; see README, Quick start)');

// Checked before anything starts: PORT=abc would migrate and build, then fail on an origin ending in NaN.
const PORT = localCollectorPort();
const DEMO = wholeNumber('DEMO_PORT', process.env.DEMO_PORT ?? String(DEMO_PORT), 1, 65_535);
// The demo's settings too: a mistyped DEMO_CORPUS or half of DEMO_LLM_* would fail only once the collector is up.
const CORPUS = corpusFromEnv();
checkCorpus(CORPUS);
generatorFromEnv();
// The Worker would read a mistyped setting as its safe value, said only in its log: refused here.
refuseMistypedVars({ ...tomlVars(join(ROOT, 'wrangler.toml')), ...devVars(join(ROOT, '.dev.vars')) }, 'wrangler.toml [vars] or .dev.vars');
// Both ports too, before the dev project takes their origins: a taken DEMO_PORT would otherwise
// be found only once the collector is up and the widget built. The demo's is held until the demo
// listens on it, so that nothing takes it while the collector starts.
if (PORT === DEMO) throw new Error(`PORT and DEMO_PORT are both ${PORT}: give them different ports`);
await refuseTakenPort(PORT);
const demoPort = await holdUntakenPort(DEMO);
/** Pages that may use the dev write key: the collector's own origin and the demo's. */
const DEV_ORIGINS = [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`, `http://127.0.0.1:${DEMO}`, `http://localhost:${DEMO}`];

// Ctrl-C at any moment stops what has started so far (see start-stop.ts); once all has, the demo
// first, so that its queued traces reach the collector, then the collector.
const { url, keys, origins, demo } = await startStoppably(async (started) => {
  const { keys, origins } = await withLocalD1({}, async (sql) => {
    // wrangler's own output reprints its table after each migration: hundreds of lines on a first start.
    const applied = await migrateWhenBehind(sql);
    console.log(applied.length ? `local D1: applied ${applied.length} migrations (${applied.at(-1)} the last)` : 'local D1: migrations up to date');
    const keys = await ensureDevProject(DEV_KEYS_FILE, DEV_ORIGINS, sql);
    // Earlier starts' ports stay allowed beside this one's.
    const origins = await sql.query<{ origin: string }>("select origin from project_origins where project_id = 'dev' order by origin");
    return { keys, origins: origins.map((r) => r.origin) };
  });
  // The Worker serves the admin console at /admin from its build.
  await buildConsole();
  const collector = await started.start(
    (signal) => startDev({ port: PORT, inherit: true, signal }),
    (server) => server.stop(),
  );
  started.watch(collector.process, 'the collector (wrangler dev)');
  const { url } = collector;
  const demo = await started.start(
    async () => {
      // The demo page serves the widget from dist/widget.
      await buildWidget({ types: false });
      await demoPort.release();
      return startDemo({ port: DEMO, collectorUrl: url, serverKey: keys.server, writeKey: keys.write, corpus: CORPUS });
    },
    (demo) => demo.close(),
  );
  return { url, keys, origins, demo };
});
// Ids of this start's own, so the example curls store a new trace each time, not a duplicate.
const run = Date.now().toString(36);
console.log(`
rag-feedback collector on ${url}  (local D1 in .wrangler/state; keys in .dev-keys.json)
admin console on ${url}/admin  (sign in with the admin key below)
demo chat app on ${demo.url}  (corpus: ${CORPUS || "this repo's docs"})

  project     dev   (origins: ${origins.join(', ')})
  write key   ${keys.write}
  server key  ${keys.server}
  admin key   ${keys.admin}
  viewer key  ${keys.viewer}  (the console's figures alone: loop health, chunks, models)

For the README's examples, in another shell:
  export WRITE_KEY=${keys.write} SERVER_KEY=${keys.server} ADMIN_KEY=${keys.admin}

Try it:
  curl ${url}/v1/health
  curl -X POST ${url}/v1/traces -H 'authorization: Bearer ${keys.server}' -H 'content-type: application/json' \\
    -d '{"traceId":"t-${run}","query":"refund window?","retrievedChunks":[{"chunkId":"c1","sourceDocId":"refunds.md","score":0.8,"rank":1,"text":"14 days"}],"answer":"14 days.","model":"demo","sessionId":"s-${run}","createdAt":${Date.now()}}'
  curl -X POST ${url}/v1/events -H 'authorization: Bearer ${keys.write}' -H 'content-type: application/json' \\
    -d '{"events":[{"eventId":"e-${run}","traceId":"t-${run}","sessionId":"s-${run}","signalType":"thumbs_down","clientTs":${Date.now()}}]}'
  curl ${url}/v1/traces/t-${run} -H 'authorization: Bearer ${keys.admin}'

Ctrl-C stops it.
`);
