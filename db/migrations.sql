-- Bringing an older fabricsim database up to this schema version: one step
-- per version, each starting at a line "-- from N" and ending by setting
-- meta's schema_version to N + 1. The only copy: fabricsim (embedded, see
-- db/schema.h), fabricsim-sweep and fabric-report (sweep/store.py,
-- analysis/rundb.py) run the steps from the file's version on, in one
-- transaction, before db/schema.sql adds what is new.

-- from 2
-- Version 3 (issue 35) records each run's platform; older runs keep NULL.
ALTER TABLE runs ADD COLUMN platform TEXT;
UPDATE meta SET value = '3' WHERE key = 'schema_version';

-- from 3
-- Version 4 (issue 40) defines every metric once (table metrics) and spells
-- each word one way: the ring's utilisation per sample interval is
-- busy_fraction, its utilisation over the run utilization (as the fabric's
-- links), and its attempts tickets.
UPDATE samples SET metric = 'busy_fraction' WHERE metric = 'utilisation';
UPDATE samples SET metric = 'utilization' WHERE metric = 'segment_utilisation';
UPDATE samples SET metric = 'tickets' WHERE metric = 'attempts';
UPDATE meta SET value = '4' WHERE key = 'schema_version';
