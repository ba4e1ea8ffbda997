-- Turns a file of schema version 5 into one as fabricsim wrote it at
-- version 4, for the tests that bring older files up (db/migrations.sql):
-- entities named by strings in samples and events, the end-of-run figures
-- among the samples (at the run's end), no entities, totals or
-- run_params.number, and no job tables (added within version 5).
DROP VIEW v_job_ranks;
DROP VIEW v_job_steps;
DROP TABLE job_operations;
DROP TABLE job_ranks;
DROP TABLE jobs;
DROP VIEW v_run_totals;
DROP VIEW v_samples;
DROP VIEW v_events;
DROP VIEW v_subflow_windows;
CREATE TABLE s4 AS
SELECT s.run_id, s.t_ps, e.name AS entity, s.metric, s.value FROM samples s JOIN entities e USING (run_id, entity_id)
UNION ALL
SELECT t.run_id, r.sim_time_ps, e.name, t.metric, t.value FROM totals t JOIN entities e USING (run_id, entity_id)
JOIN runs r USING (run_id);
CREATE TABLE e4 AS
SELECT v.run_id, v.t_ps, v.kind, e.name AS entity, v.flow_id, v.value FROM events v JOIN entities e USING (run_id, entity_id);
DROP TABLE samples;
DROP TABLE totals;
DROP TABLE events;
DROP TABLE entities;
ALTER TABLE s4 RENAME TO samples;
ALTER TABLE e4 RENAME TO events;
ALTER TABLE run_params DROP COLUMN number;
CREATE VIEW v_samples AS SELECT * FROM samples;
CREATE VIEW v_run_totals AS SELECT * FROM samples;
UPDATE meta SET value = '4' WHERE key = 'schema_version';
