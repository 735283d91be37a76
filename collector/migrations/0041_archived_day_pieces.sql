-- A day of more rows than one slice of the archive writes is written as several objects, its pieces.
ALTER TABLE `archived_days` ADD `pieces` integer DEFAULT 1 NOT NULL;
