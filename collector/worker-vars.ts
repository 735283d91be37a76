/**
 * The Worker's settings from wrangler.toml `[vars]`, `.dev.vars` or `--var`, read with one rule:
 * unset, a setting is its default; set to a value it does not take (a typo), it is said loudly (an
 * error logged once per isolate naming it and what it takes, listed by GET /v1/admin/project, and
 * refused by `npm start` and `npm run deploy`) and read meanwhile as its safe value, so that no
 * request is refused for it and nothing accepted is lost.
 */
import { DEFAULT_QUERY_BUDGET, MIN_QUERY_BUDGET } from './jobs/query-budget.ts';

export interface WorkerVar<T> {
  /** What it takes, as errors say it. */
  accepts: string;
  /** Its value when unset. */
  fallback: T;
  /** Its value while it holds one it does not take: the one that loses nothing. */
  whenInvalid: T;
  parse(raw: string): T | undefined;
}

/** Defaults per minute of the RATE_LIMIT_* vars (collector/middleware/rate-limit.ts). */
export const DEFAULT_RATE_LIMITS = {
  /** Events (or traces) one key may write per minute. */
  key: 60_000,
  /** Events one session may send per minute: a person clicks far less; a flood is a bug or abuse. */
  session: 600,
  /** Requests one client IP may make per minute, good or bad. */
  ip: 1_200,
};

const defineVar = <T>(rule: WorkerVar<T>) => rule;

const positiveNumber = (raw: string) => {
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** A rate limit: over it a request is answered 429 and sent again, so its default loses nothing. */
const rateLimit = (fallback: number) => defineVar({ accepts: 'a number above 0', fallback, whenInvalid: fallback, parse: positiveNumber });

export const WORKER_VARS = {
  /** How POST /v1/events stores events; read as `direct` (written before answering) when mistyped. */
  EVENTS_INGEST: defineVar<'direct' | 'queue'>({
    accepts: '"direct" or "queue"',
    fallback: 'direct',
    whenInvalid: 'direct',
    parse: (raw) => (raw === 'direct' || raw === 'queue' ? raw : undefined),
  }),
  /**
   * D1 queries an invocation of the nightly job may run; mistyped, the least that runs a slice, so
   * that the job never runs past a lower platform limit the value may have meant (it goes on, slower).
   */
  NIGHTLY_QUERY_BUDGET: defineVar({
    accepts: 'a whole number above 0',
    fallback: DEFAULT_QUERY_BUDGET,
    whenInvalid: MIN_QUERY_BUDGET,
    parse: (raw) => {
      const n = positiveNumber(raw);
      return n !== undefined && Number.isInteger(n) ? n : undefined;
    },
  }),
  RATE_LIMIT_KEY_PER_MIN: rateLimit(DEFAULT_RATE_LIMITS.key),
  RATE_LIMIT_SESSION_PER_MIN: rateLimit(DEFAULT_RATE_LIMITS.session),
  RATE_LIMIT_IP_PER_MIN: rateLimit(DEFAULT_RATE_LIMITS.ip),
};

export type WorkerVarName = keyof typeof WORKER_VARS;
/** The Worker's env, or vars read from its config files. */
type Vars = Readonly<Partial<Record<WorkerVarName, unknown>>>;
type ValueOf<N extends WorkerVarName> = (typeof WORKER_VARS)[N] extends WorkerVar<infer T> ? T : never;

/** A setting holding a value it does not take. */
export interface VarProblem {
  variable: WorkerVarName;
  /** As set (a number in wrangler.toml arrives as one). */
  value: unknown;
  /** What it takes. */
  accepts: string;
  /** What it says: the variable, its value, what it takes and what it is read as meanwhile. */
  message: string;
}

function problemOf(variable: WorkerVarName, value: unknown): VarProblem | undefined {
  const rule: WorkerVar<unknown> = WORKER_VARS[variable];
  if (value === undefined || rule.parse(String(value)) !== undefined) return undefined;
  return {
    variable,
    value,
    accepts: rule.accepts,
    message: `${variable} is ${JSON.stringify(value)}, which it does not take (it takes ${rule.accepts}): read as ${JSON.stringify(rule.whenInvalid)} until it is set right`,
  };
}

/** The settings among `vars` that hold a value they do not take. */
export const varProblems = (vars: Vars): VarProblem[] => (Object.keys(WORKER_VARS) as WorkerVarName[]).flatMap((name) => problemOf(name, vars[name]) ?? []);

/** What was logged already in this isolate: once each, not at every request. */
const logged = new Set<string>();

/** A setting's value: its default when unset, its safe value (logged once per isolate) when it holds one it does not take. */
export function readVar<N extends WorkerVarName>(env: Vars, name: N): ValueOf<N> {
  const rule = WORKER_VARS[name] as WorkerVar<ValueOf<N>>;
  const raw = env[name];
  if (raw === undefined) return rule.fallback;
  const value = rule.parse(String(raw));
  if (value !== undefined) return value;
  const key = `${name}=${String(raw)}`;
  if (!logged.has(key)) {
    logged.add(key);
    console.error(`Configuration error: ${problemOf(name, raw)!.message}`);
  }
  return rule.whenInvalid;
}
