-- A night's run is held by the invocation running it, until a time (collector/storage/loop-runs.ts `leaseRun`):
-- a manual run and the cron, or two cron invocations, never run the same night's slices at once.
ALTER TABLE `loop_runs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `loop_runs` ADD `lease_until` integer;
