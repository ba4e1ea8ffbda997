-- Turns a file of schema version 4 (version_4.sql) into one of version 3:
-- no metrics table, and the ring's metrics spelt as they were.
DROP VIEW v_run_totals;
DROP VIEW v_samples;
DROP TABLE metrics;
UPDATE samples SET metric = 'attempts' WHERE metric = 'tickets';
UPDATE samples SET metric = 'utilisation' WHERE metric = 'busy_fraction';
UPDATE samples SET metric = 'segment_utilisation' WHERE metric = 'utilization' AND entity GLOB 'ring*.segment*';
UPDATE meta SET value = '3' WHERE key = 'schema_version';
