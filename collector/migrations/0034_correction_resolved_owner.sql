-- The owner a correction was routed to when resolved ('' for none), so the resolved inbox keeps it
-- there whatever the owner rules say later. Null for those resolved before: listed by the current rules.
ALTER TABLE `corrections` ADD `resolved_owner` text;
