import type { CollectorState } from '../../scripts/local-collector.ts';

/** What the browser suite's global setup gives its tests (`inject`). */
declare module 'vitest' {
  export interface ProvidedContext {
    collector: string;
    site: string;
    keys: { write: string; server: string; admin: string };
    /** Where the suite's one Chromium listens (see launchShared). */
    browserEndpoint: string;
    /** The console tests' seeded collector, stopped, to start copies of (console/e2e/seeded-state.ts). */
    seededCollector: CollectorState;
  }
}
