/** What `POST /v1/admin/nightly` answers: one shape for the collector, `npm run nightly` and the benchmarks. */

/** One stage of a night's run, as the run records it. */
export interface StageReport {
  name: string;
  slices: number;
  ms: number;
  counts: Record<string, number>;
  /** D1 queries its slices ran (a batch counts as its statements), and the most one slice ran. */
  queries?: number;
  sliceQueriesMax?: number;
  /** What the stage decided, in words (retraining's verdict). */
  note?: string;
}

/** Whether a night's run still has stages to run: the one list the collector's column and the answers' type are made from. */
export const RUN_STATUSES = ['running', 'done'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface NightlySummary {
  night: string;
  /** When the call began, by the collector's clock (epoch ms): a run finished before it was done by an earlier call. */
  calledAt: number;
  /** `finishedAt`: when the run was done (epoch ms), earlier than `calledAt` for a night done before. */
  runs: {
    projectId: string;
    status: RunStatus;
    stage: string | null;
    finishedAt: number | null;
    stages: StageReport[];
    error?: string;
    /**
     * Another invocation (the cron, another call) was running the project's night `heldBy`, this
     * night or another: this one left the project alone; that one holds it until then at the latest (epoch ms).
     */
    heldBy?: string;
    heldUntil?: number;
  }[];
  /** True when every run of the night is done. */
  done: boolean;
}
