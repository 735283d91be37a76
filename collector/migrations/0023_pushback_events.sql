-- A follow-up that pushes back ("that's wrong") keeps the id of the event it makes on the answer before it,
-- so a batch that stores that answer later can make the event too (collector/storage/pushbacks.ts).
ALTER TABLE `traces` ADD `pushback_event_id` text;