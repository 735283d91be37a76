/**
 * The demo's HTTP routes: the chat page and its script, the widget's files from dist/widget/,
 * the page's settings, and `POST /api/ask`. A plain Hono app, so tests call `app.request()`
 * without a server.
 */
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import { noRoute } from '../../shared/allowed-methods.ts';
import { errorBody } from '../../shared/error-body.ts';
import { decodedOrUndefined } from '../../shared/url.ts';
import { arrayForObject, faultsIn, fieldErrors } from '../../shared/validation.ts';
import type { Answerer } from './answerer.ts';
import { AskSchema, MAX_ASK_BYTES } from './ask-schema.ts';
import { DemoError, handleError, jsonBodyOf } from './errors.ts';

/** What the page needs to know, served as `GET /api/config`. */
export interface ClientConfig {
  /** The collector the widget sends events to; null when the demo runs without one. */
  endpoint: string | null;
  /** The project's public write key, for the widget. */
  writeKey: string | null;
  /** The collector's console, linked from the page. */
  consoleUrl: string | null;
  /** `examples`: questions the page offers on an empty chat. */
  corpus: { name: string; chunks: number; examples: string[] };
}

/** Whether feedback reaches the collector, served as `GET /api/delivery`: `problem` says what to check while it does not. */
export interface Delivered {
  problem: string | null;
}

export interface PageAssets {
  html: string;
  script: string;
  style: string;
  /** The widget's build, served under /widget/. */
  widgetDir: string;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8' };

/** The page loads only its own files; the widget talks to the collector. */
const csp = (endpoint: string | null) =>
  [
    "default-src 'self'",
    `connect-src 'self'${endpoint ? ` ${new URL(endpoint).origin}` : ''}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/** The origin the page was opened at, as its browser named the demo (`localhost` or `127.0.0.1`); else the demo's own. */
const pageOrigin = (host: string | undefined, url: string) => (host && URL.canParse(`http://${host}`) ? new URL(`http://${host}`) : new URL(url)).origin;

/** The demo's web app: the page, its script and style, the widget's build, and the backend's API the page calls. */
export function createDemoApp({
  answerer,
  config,
  assets,
  deliveryProblem = () => null,
}: {
  answerer: Answerer;
  config: ClientConfig;
  assets: PageAssets;
  /** Why feedback is not reaching the collector from a page at `pageOrigin`, said there; null while it is (or without one). */
  deliveryProblem?: (pageOrigin: string) => string | null;
}) {
  const widgetRoot = resolve(assets.widgetDir);
  const app = new Hono()
    .use(async (c, next) => {
      await next();
      c.header('x-content-type-options', 'nosniff');
    })
    .get('/', (c) => {
      c.header('content-security-policy', csp(config.endpoint));
      return c.html(assets.html);
    })
    .get('/app.js', (c) => c.body(assets.script, 200, { 'content-type': TYPES['.js']! }))
    .get('/style.css', (c) => c.body(assets.style, 200, { 'content-type': 'text/css; charset=utf-8' }))
    .get('/widget/*', async (c) => {
      const name = decodedOrUndefined(c.req.path.slice('/widget/'.length));
      // A malformed escape (`%E0%A4`) names no file: not found, as any other name outside the build.
      if (name === undefined) return c.notFound();
      const file = resolve(widgetRoot, name);
      const type = TYPES[extname(file)];
      // Only the build's own scripts and manifest, and nothing outside it.
      if (!type || !file.startsWith(widgetRoot + sep)) return c.notFound();
      const body = await readFile(file).catch(() => undefined);
      return body ? c.body(body, 200, { 'content-type': type, 'cache-control': 'no-cache' }) : c.notFound();
    })
    .get('/api/config', (c) => c.json(config))
    .get('/api/delivery', (c) => c.json({ problem: deliveryProblem(pageOrigin(c.req.header('host'), c.req.url)) } satisfies Delivered))
    .post(
      '/api/ask',
      bodyLimit({
        maxSize: MAX_ASK_BYTES,
        onError: () => {
          throw new DemoError(413, 'payload_too_large', `The body is larger than ${MAX_ASK_BYTES} bytes`, 'body');
        },
      }),
      async (c) => {
        const body = await jsonBodyOf(c, MAX_ASK_BYTES);
        // valibot reads a list as an object without fields: `[]` would be refused for a missing sessionId.
        if (arrayForObject(AskSchema, body))
          throw DemoError.fields('invalid_request', [{ field: 'body', message: 'The body must be a JSON object, not an array' }]);
        const parsed = v.safeParse(AskSchema, body);
        // Every field at fault, so a client puts them all right in one round.
        if (!parsed.success) throw DemoError.fields('invalid_request', faultsIn('body', fieldErrors(parsed.issues, '', { schema: AskSchema, input: body })));
        return c.json(await answerer.ask(parsed.output));
      },
    )
    .onError(handleError);
  return app.notFound((c) => {
    const answer = noRoute(app, c.req.method, c.req.path);
    return c.json(errorBody(answer.code, answer.message, answer.field), answer.status, answer.headers);
  });
}
