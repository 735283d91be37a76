-- The gate's findings as data beside its English reasons, for the console to word in the reader's
-- language; models stored before keep '[]' and show their reasons.
ALTER TABLE `models` ADD `findings` text DEFAULT '[]' NOT NULL;
