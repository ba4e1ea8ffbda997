-- Turns a file of schema version 3 (version_3.sql) into one of version 2:
-- no run_params, run_warnings or runs.platform.
DROP TABLE run_params;
DROP TABLE run_warnings;
ALTER TABLE runs DROP COLUMN platform;
UPDATE meta SET value = '2' WHERE key = 'schema_version';
