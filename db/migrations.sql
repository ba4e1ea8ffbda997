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

-- from 5
-- Version 6 (issue 55) gives each entity its place as columns (table
-- entities in db/schema.sql: a link's ends, from sender to receiver, or the
-- unit an entity is or belongs to; a direction), read here from the names
-- version 5 gave: fabric leafL_spineS_up, leafL_spineS_down,
-- leafL_portK_from_cna and leafL_portK_to_cna (the port: leaf L's K-th user
-- port in ports), leafN, cnaN, portN.in and portN.out; backplane
-- stationN_to_switch, switch_to_stationN, stationN and switch; ring
-- ringR.segmentP (its ends: the station or bridge at position P and at the
-- next one, from the run's ring.stations and ring.rings as
-- model/ring/ring_network.cpp places them; NULL in a run without
-- run_params), stationN and bridgeB.sideS (onto ring B / 2 for side 0, its
-- parent, B + 1 for side 1). ibft records no entity but its system. No
-- entity was per virtual lane: vl stays NULL.
ALTER TABLE entities ADD COLUMN from_kind TEXT CHECK (from_kind IN ('leaf', 'spine', 'port', 'station', 'switch',
                                                                   'bridge', 'ring'));
ALTER TABLE entities ADD COLUMN from_id INTEGER;
ALTER TABLE entities ADD COLUMN to_kind TEXT CHECK (to_kind IN ('leaf', 'spine', 'port', 'station', 'switch', 'bridge',
                                                               'ring'));
ALTER TABLE entities ADD COLUMN to_id INTEGER;
ALTER TABLE entities ADD COLUMN direction TEXT CHECK (direction IN ('up', 'down', 'to_switch', 'to_station', 'in',
                                                                   'out'));
ALTER TABLE entities ADD COLUMN vl INTEGER;
UPDATE entities SET from_kind = 'port', from_id = port_id WHERE kind IN ('port', 'cna');
UPDATE entities SET from_kind = 'port', from_id = port_id, direction = substr(name, instr(name, '.') + 1)
WHERE kind = 'congestion_point' AND (name GLOB '*.in' OR name GLOB '*.out');
UPDATE entities SET from_kind = 'station', from_id = port_id WHERE kind = 'station';
UPDATE entities SET from_kind = 'switch', from_id = 0 WHERE kind = 'switch';
UPDATE entities SET from_kind = 'leaf', from_id = CAST(substr(name, 5) AS INTEGER)
WHERE kind = 'leaf' AND name GLOB 'leaf[0-9]*';
UPDATE entities SET from_kind = 'leaf', from_id = CAST(substr(name, 5) AS INTEGER),
                    to_kind = 'spine', to_id = CAST(substr(name, instr(name, '_spine') + 6) AS INTEGER),
                    direction = 'up'
WHERE kind = 'link' AND name GLOB 'leaf[0-9]*_spine[0-9]*_up';
UPDATE entities SET from_kind = 'spine', from_id = CAST(substr(name, instr(name, '_spine') + 6) AS INTEGER),
                    to_kind = 'leaf', to_id = CAST(substr(name, 5) AS INTEGER), direction = 'down'
WHERE kind = 'link' AND name GLOB 'leaf[0-9]*_spine[0-9]*_down';
UPDATE entities
SET from_kind = CASE WHEN name GLOB '*_from_cna' THEN 'port' ELSE 'leaf' END,
    from_id = CASE WHEN name GLOB '*_from_cna' THEN p.port_id ELSE p.leaf_id END,
    to_kind = CASE WHEN name GLOB '*_from_cna' THEN 'leaf' ELSE 'port' END,
    to_id = CASE WHEN name GLOB '*_from_cna' THEN p.leaf_id ELSE p.port_id END,
    direction = CASE WHEN name GLOB '*_from_cna' THEN 'up' ELSE 'down' END
FROM (SELECT run_id, leaf_id, port_id, row_number() OVER (PARTITION BY run_id, leaf_id ORDER BY port_id) - 1 AS k
      FROM ports WHERE kind = 'user') AS p
WHERE entities.kind = 'link' AND (entities.name GLOB 'leaf[0-9]*_port[0-9]*_from_cna'
                                  OR entities.name GLOB 'leaf[0-9]*_port[0-9]*_to_cna')
  AND p.run_id = entities.run_id AND p.leaf_id = CAST(substr(entities.name, 5) AS INTEGER)
  AND p.k = CAST(substr(entities.name, instr(entities.name, '_port') + 5) AS INTEGER);
UPDATE entities SET from_kind = 'station', from_id = CAST(substr(name, 8) AS INTEGER),
                    to_kind = 'switch', to_id = 0, direction = 'to_switch'
WHERE kind = 'link' AND name GLOB 'station[0-9]*_to_switch';
UPDATE entities SET from_kind = 'switch', from_id = 0,
                    to_kind = 'station', to_id = CAST(substr(name, 18) AS INTEGER), direction = 'to_station'
WHERE kind = 'link' AND name GLOB 'switch_to_station[0-9]*';
UPDATE entities SET from_kind = 'bridge', from_id = CAST(substr(name, 7) AS INTEGER), to_kind = 'ring',
                    to_id = CASE WHEN name GLOB '*.side0' THEN CAST(substr(name, 7) AS INTEGER) / 2
                                 ELSE CAST(substr(name, 7) AS INTEGER) + 1 END
WHERE kind = 'bridge_side' AND name GLOB 'bridge[0-9]*.side[01]';
UPDATE entities SET from_kind = s.from_kind, from_id = s.from_id, to_kind = s.to_kind, to_id = s.to_id
FROM (
  WITH segments AS (
    SELECT e.run_id, e.entity_id, CAST(substr(e.name, 5) AS INTEGER) AS r,
           CAST(substr(e.name, instr(e.name, '.segment') + 8) AS INTEGER) AS p,
           CAST(n.value AS INTEGER) AS n, CAST(k.value AS INTEGER) AS rings
    FROM entities AS e
    JOIN run_params AS n ON n.run_id = e.run_id AND n.key = 'ring.stations'
    JOIN run_params AS k ON k.run_id = e.run_id AND k.key = 'ring.rings'
    WHERE e.kind = 'segment' AND e.name GLOB 'ring[0-9]*.segment[0-9]*'
  ), ends AS (  -- the positions of ring r: its stations, then its bridge to the parent ring, then those to its children
    SELECT run_id, entity_id, r, n, p AS at, 0 AS receiving FROM segments
    UNION ALL
    SELECT run_id, entity_id, r, n, (p + 1) % (n + (r > 0) + (2 * r + 1 < rings) + (2 * r + 2 < rings)), 1
    FROM segments
  ), units AS (
    SELECT run_id, entity_id, receiving, CASE WHEN at < n THEN 'station' ELSE 'bridge' END AS kind,
           CASE WHEN at < n THEN r * n + at WHEN r > 0 AND at = n THEN r - 1 ELSE 2 * r + at - n - (r > 0) END AS id
    FROM ends
  )
  SELECT f.run_id, f.entity_id, f.kind AS from_kind, f.id AS from_id, t.kind AS to_kind, t.id AS to_id
  FROM units AS f JOIN units AS t ON t.run_id = f.run_id AND t.entity_id = f.entity_id AND t.receiving = 1
  WHERE f.receiving = 0
) AS s
WHERE entities.run_id = s.run_id AND entities.entity_id = s.entity_id;
UPDATE meta SET value = '6' WHERE key = 'schema_version';
