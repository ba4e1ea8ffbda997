-- Bringing an older fabricsim database up to this schema version: one step
-- per version, each starting at a line "-- from N" and ending by setting
-- meta's schema_version to N + 1. The only copy: fabricsim (embedded, see
-- db/schema.h), fabricsim-sweep and fabric-report (sweep/store.py,
-- analysis/rundb.py) run the steps from the file's version on, in one
-- transaction, before db/schema.sql adds what is new.

-- from 2
-- Version 3 (issue 35) records each run's platform (older runs keep NULL),
-- its parameters and its warnings (none for older runs).
ALTER TABLE runs ADD COLUMN platform TEXT;
CREATE TABLE IF NOT EXISTS run_params (
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  key    TEXT NOT NULL,
  value  TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('default', 'derived', 'study', 'config', 'set', 'sweep')),
  origin TEXT,
  PRIMARY KEY (run_id, key)
);
CREATE TABLE IF NOT EXISTS run_warnings (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  check_name TEXT NOT NULL,
  keys    TEXT NOT NULL,
  message TEXT NOT NULL
);
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

-- from 4
-- Version 5 (issue 40) names what samples and events are about by an
-- integer entity (table entities; a port's entity_id is its port_id, the
-- others are numbered from 1000000 on, here in the order of their names),
-- keeps the end-of-run figures apart in totals, and gives each parameter
-- its value as a number (run_params.number: NULL in the runs brought up).
-- An entity's kind is read from its name as version 4 spelt it.
DROP VIEW IF EXISTS v_samples;
DROP VIEW IF EXISTS v_run_totals;
ALTER TABLE run_params ADD COLUMN number REAL;
CREATE TABLE entities (
  run_id    INTEGER NOT NULL REFERENCES runs(run_id),
  entity_id INTEGER NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('system', 'port', 'leaf', 'link', 'cna', 'congestion_point', 'switch',
                                          'station', 'segment', 'bridge_side')),
  name      TEXT NOT NULL,
  port_id   INTEGER,
  PRIMARY KEY (run_id, entity_id)
);
INSERT INTO entities(run_id, entity_id, kind, name, port_id)
SELECT run_id, port_id, 'port', 'port' || port_id, port_id FROM ports;
CREATE INDEX entities_by_name ON entities(run_id, name);
WITH names(run_id, name) AS (
  SELECT run_id, entity FROM samples UNION SELECT run_id, entity FROM events
), others AS (
  SELECT n.run_id, n.name FROM names AS n
  WHERE NOT EXISTS (SELECT 1 FROM entities AS e WHERE e.run_id = n.run_id AND e.name = n.name)
)
INSERT INTO entities(run_id, entity_id, kind, name, port_id)
SELECT run_id, 999999 + row_number() OVER (PARTITION BY run_id ORDER BY name),
       CASE
         WHEN name IN ('fabric', 'backplane', 'ibft', 'ring') THEN 'system'
         WHEN name = 'switch' THEN 'switch'
         WHEN name GLOB 'port[0-9]*.in' OR name GLOB 'port[0-9]*.out' THEN 'congestion_point'
         WHEN name GLOB '*_*' THEN 'link'
         WHEN name GLOB 'leaf[0-9]*' THEN 'leaf'
         WHEN name GLOB 'cna[0-9]*' THEN 'cna'
         WHEN name GLOB 'station[0-9]*' THEN 'station'
         WHEN name GLOB 'ring[0-9]*.segment[0-9]*' THEN 'segment'
         WHEN name GLOB '*.side[0-9]*' THEN 'bridge_side'
         ELSE 'system'
       END,
       name,
       CASE
         WHEN name GLOB 'port[0-9]*.*' THEN CAST(substr(name, 5, instr(name, '.') - 5) AS INTEGER)
         WHEN name GLOB 'cna[0-9]*' AND name NOT GLOB '*_*' THEN CAST(substr(name, 4) AS INTEGER)
         WHEN name GLOB 'station[0-9]*' AND name NOT GLOB '*_*' THEN CAST(substr(name, 8) AS INTEGER)
       END
FROM others;
CREATE TABLE samples_v5 (
  run_id    INTEGER NOT NULL,
  t_ps      INTEGER NOT NULL,
  entity_id INTEGER NOT NULL,
  metric    TEXT NOT NULL,
  value     REAL
);
CREATE TABLE totals (
  run_id    INTEGER NOT NULL,
  entity_id INTEGER NOT NULL,
  metric    TEXT NOT NULL,
  value     REAL
);
CREATE TABLE events_v5 (
  run_id    INTEGER NOT NULL,
  t_ps      INTEGER NOT NULL,
  kind      TEXT NOT NULL,
  entity_id INTEGER NOT NULL,
  flow_id   INTEGER,
  value     REAL
);
INSERT INTO samples_v5(run_id, t_ps, entity_id, metric, value)
SELECT s.run_id, s.t_ps, e.entity_id, s.metric, s.value
FROM samples AS s JOIN entities AS e ON e.run_id = s.run_id AND e.name = s.entity
WHERE s.metric IN ('ingress_bytes', 'egress_bytes', 'cache_entries', 'cache_hits', 'cache_misses',
                   'cache_premature_evictions', 'cache_background_reclaims', 'remote_copies_acked',
                   'remote_copy_hold_ps', 'control_messages', 'control_merged', 'memory_bytes', 'packets_held',
                   'busy_fraction', 'spq_mean', 'q_mean')
ORDER BY s.rowid;
INSERT INTO totals(run_id, entity_id, metric, value)
SELECT s.run_id, e.entity_id, s.metric, s.value
FROM samples AS s JOIN entities AS e ON e.run_id = s.run_id AND e.name = s.entity
WHERE s.metric NOT IN ('ingress_bytes', 'egress_bytes', 'cache_entries', 'cache_hits', 'cache_misses',
                       'cache_premature_evictions', 'cache_background_reclaims', 'remote_copies_acked',
                       'remote_copy_hold_ps', 'control_messages', 'control_merged', 'memory_bytes', 'packets_held',
                       'busy_fraction', 'spq_mean', 'q_mean')
ORDER BY s.rowid;
INSERT INTO events_v5(run_id, t_ps, kind, entity_id, flow_id, value)
SELECT v.run_id, v.t_ps, v.kind, e.entity_id, v.flow_id, v.value
FROM events AS v JOIN entities AS e ON e.run_id = v.run_id AND e.name = v.entity
ORDER BY v.rowid;
DROP TABLE samples;
DROP TABLE events;
ALTER TABLE samples_v5 RENAME TO samples;
ALTER TABLE events_v5 RENAME TO events;
DROP INDEX entities_by_name;
UPDATE meta SET value = '5' WHERE key = 'schema_version';
