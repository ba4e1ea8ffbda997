-- fabricsim results database, schema version 6. fabricsim and the report
-- and sweep tools bring an older file up when they open it, by the steps of
-- db/migrations.sql: version 5 gave an entity only a name (leaf0_spine3_up)
-- where version 6 also gives its ends as columns; version 4 named entities by free strings in samples
-- and events and kept end-of-run figures among the samples; version 3 had
-- no metrics table and spelt some metrics differently; version 2 lacked
-- runs.platform, run_params and run_warnings (older runs keep NULL platform
-- and no parameter rows). Version 1 lacked deliveries.bytes and
-- deliveries.t_created_ps; fabricsim refuses it. Tables added within a
-- version (jobs, job_ranks, job_operations in version 5) need no step:
-- every open runs this file's CREATE ... IF NOT EXISTS after the steps.
--
-- This file is the only copy: the build embeds it in the program (CMake
-- splits it at the indexes comment below into kSchemaTablesSql and
-- kSchemaIndexesSql, see db/schema_text.inc.in).
--
-- Times are integer picoseconds, sizes bytes. One database holds many runs:
-- every table carries run_id, and a new run only appends rows.

-- Lets fabricsim recognise its own databases and refuse other tools' files.
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', 'fabricsim'), ('schema_version', '6');

CREATE TABLE IF NOT EXISTS runs (
  run_id        INTEGER PRIMARY KEY,
  study         TEXT NOT NULL,
  config        TEXT NOT NULL,     -- the full resolved configuration
  seed          INTEGER NOT NULL,  -- seeds above 2^63-1 appear as their two's complement
  sim_time_ps   INTEGER,           -- simulated time reached; while running, how far its rows are complete
  wall_seconds  REAL,              -- NULL while running
  model_version TEXT NOT NULL,
  started_at    TEXT NOT NULL,     -- ISO-8601 UTC, e.g. 2024-05-01T12:00:00Z
  status        TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
  log_level     TEXT NOT NULL,     -- 'frames' or 'summary'
  platform      TEXT               -- the key 'platform' (fabric, backplane, ibft, ring); NULL in runs of schema version 2
);

-- Every key of a run as it resolved it, one row each (the keys that cannot
-- change results, such as sim.threads, left out, as in runs.config): the
-- value in the key's syntax ("2us", "6KB", "16") and where it came from.
CREATE TABLE IF NOT EXISTS run_params (
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  key    TEXT NOT NULL,
  value  TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('default', 'derived', 'study', 'config', 'set', 'sweep')),
  origin TEXT,                   -- file:line of a study's or --config file's value; the formula with its numbers for a derived one
  number REAL,                   -- the value as a number in the key's unit of --list-params (ps, B, Gb/s; 1 or 0 for
                                 -- true or false), to plot against; NULL for text, choice and list keys
  PRIMARY KEY (run_id, key)
);

-- The checks of physical constraints that did not hold when the run was
-- resolved (fabricsim printed them as warnings; --strict refuses such a run).
CREATE TABLE IF NOT EXISTS run_warnings (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  check_name TEXT NOT NULL,      -- what must hold: "link.retry.timeout >= the link ACK round trip"
  keys    TEXT NOT NULL,         -- the keys it reads, comma separated, the one to change first
  message TEXT NOT NULL          -- the values and the numbers, and what breaks
);

-- The process writing a run that is still 'running'; removed when the run
-- ends. A later fabricsim that opens the file marks a run 'interrupted' when
-- its process is gone (killed outright): see docs/database.md.
CREATE TABLE IF NOT EXISTS run_owners (
  run_id      INTEGER PRIMARY KEY REFERENCES runs(run_id),
  host        TEXT NOT NULL,     -- host name
  boot_id     TEXT NOT NULL,     -- the machine's boot (/proc/sys/kernel/random/boot_id)
  pid         INTEGER NOT NULL,
  start_ticks INTEGER NOT NULL   -- the process's start time, clock ticks since boot
);

-- What samples, totals and events are about: a port, a link, a leaf, a
-- station... (model/recording/entity.h). A port's entity_id is its port_id,
-- so every table that names a port (ports, flows, frames, deliveries,
-- drops) names an entity; the others are numbered from 1000000 on. An
-- entity has a row once something is recorded about it (ports: always).
-- Where it sits is in columns (model/recording/entity_place.h), so that a
-- sum per spine or per leaf is a GROUP BY, not string work on the name: a
-- link's two ends, from the unit that sends to the unit that receives (a
-- ring segment: from the station or bridge at its position to the next
-- one's), or for any other entity the one unit it is or belongs to (from_*
-- only). Ends' kinds: leaf and spine (fabric, by leaf id and spine index),
-- port (a port_id; a fabric CNA is its port's), station (a backplane or
-- ring station, by its port id), switch (the backplane's, 0), bridge and
-- ring (ring platform, by index).
--   kind              from                    to           direction
--   link (fabric)     leaf L / spine S / port leaf / spine  up (CNA to leaf, leaf to spine), down (back)
--   link (backplane)  station N / switch 0    the other    to_switch, to_station
--   segment (ring)    station or bridge       the next     NULL
--   bridge_side       bridge B                ring (side 0: its parent ring, side 1: its child ring)
--   leaf, cna, port, station, switch, congestion_point: from = the leaf, port, station or switch;
--   a congestion point's direction is its port's side, in or out. system: all NULL.
CREATE TABLE IF NOT EXISTS entities (
  run_id    INTEGER NOT NULL REFERENCES runs(run_id),
  entity_id INTEGER NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('system', 'port', 'leaf', 'link', 'cna', 'congestion_point', 'switch',
                                          'station', 'segment', 'bridge_side')),
  name      TEXT NOT NULL,     -- port6, leaf0, leaf0_spine3_up, cna5, port6.in, switch, station2, ring0.segment3, fabric
  port_id   INTEGER,           -- the port it is or serves (a CNA's, a station's, a congestion point's); NULL for none
  from_kind TEXT CHECK (from_kind IN ('leaf', 'spine', 'port', 'station', 'switch', 'bridge', 'ring')),
                               -- a link's sending end, or the unit the entity is or belongs to; NULL: none (system)
  from_id   INTEGER,           -- its id (leaf id, spine index, port_id, ...); NULL with from_kind
  to_kind   TEXT CHECK (to_kind IN ('leaf', 'spine', 'port', 'station', 'switch', 'bridge', 'ring')),
                               -- a link's receiving end; NULL for an entity that is not a link
  to_id     INTEGER,           -- its id; NULL with to_kind
  direction TEXT CHECK (direction IN ('up', 'down', 'to_switch', 'to_station', 'in', 'out')),
                               -- a link's direction in its platform's words, a congestion point's side; NULL: none
  vl        INTEGER,           -- the virtual lane the entity is about; NULL: not one lane (every entity today)
  PRIMARY KEY (run_id, entity_id)
);

CREATE TABLE IF NOT EXISTS ports (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  port_id INTEGER NOT NULL,
  leaf_id INTEGER NOT NULL,
  kind    TEXT NOT NULL CHECK (kind IN ('user', 'surrogate')),
  rack    INTEGER,
  chassis INTEGER,
  cie     INTEGER,
  PRIMARY KEY (run_id, port_id)
);

CREATE TABLE IF NOT EXISTS flows (
  run_id       INTEGER NOT NULL REFERENCES runs(run_id),
  flow_id      INTEGER NOT NULL,
  name         TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('unicast', 'multicast')),
  src_port     INTEGER NOT NULL,
  priority     INTEGER NOT NULL,
  offered_gbps REAL NOT NULL,
  frame_bytes  INTEGER,            -- NULL when sizes follow a distribution
  frame_size   TEXT NOT NULL,      -- the size as configured, e.g. '1500' or 'uniform(64,1500)'
  start_ps     INTEGER NOT NULL,
  stop_ps      INTEGER,            -- NULL: runs to the end
  PRIMARY KEY (run_id, flow_id)
);

CREATE TABLE IF NOT EXISTS flow_dests (
  run_id   INTEGER NOT NULL REFERENCES runs(run_id),
  flow_id  INTEGER NOT NULL,
  dst_port INTEGER NOT NULL,
  PRIMARY KEY (run_id, flow_id, dst_port)
);

-- The bulk tables have no keys so that loading stays fast; see the indexes.
CREATE TABLE IF NOT EXISTS frames (
  run_id        INTEGER NOT NULL,
  frame_id      INTEGER NOT NULL,  -- (source port << 32) | per-source sequence
  flow_id       INTEGER NOT NULL,
  src_port      INTEGER NOT NULL,
  bytes         INTEGER NOT NULL,
  priority      INTEGER NOT NULL,
  t_created_ps  INTEGER NOT NULL,
  t_injected_ps INTEGER            -- NULL if never sent
);

CREATE TABLE IF NOT EXISTS deliveries (
  run_id           INTEGER NOT NULL,
  frame_id         INTEGER NOT NULL,
  flow_id          INTEGER NOT NULL,
  dst_port         INTEGER NOT NULL,
  t_delivered_ps   INTEGER NOT NULL,
  surrogate_levels INTEGER NOT NULL,
  -- Copied from the frame, so throughput and latency need no join with
  -- frames (a join costs a B-tree look-up per delivery: 10x slower).
  bytes            INTEGER NOT NULL,
  t_created_ps     INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS drops (
  run_id   INTEGER NOT NULL,
  frame_id INTEGER NOT NULL,
  flow_id  INTEGER NOT NULL,
  port_id  INTEGER NOT NULL,       -- where it was dropped
  dst_port INTEGER,                -- NULL for a whole frame
  reason   TEXT NOT NULL,
  t_ps     INTEGER NOT NULL
);

-- Time series: a metric of kind 'series' (table metrics) sampled every
-- record.sample_interval and at the run's end.
CREATE TABLE IF NOT EXISTS samples (
  run_id    INTEGER NOT NULL,
  t_ps      INTEGER NOT NULL,
  entity_id INTEGER NOT NULL,      -- entities
  metric    TEXT NOT NULL,         -- metrics.name
  value     REAL
);

-- End-of-run figures: a metric of kind 'total', once per run and entity, at
-- the run's end (runs.sim_time_ps). A missing row is 0: links that carried
-- nothing, for one, have none.
CREATE TABLE IF NOT EXISTS totals (
  run_id    INTEGER NOT NULL,
  entity_id INTEGER NOT NULL,      -- entities
  metric    TEXT NOT NULL,         -- metrics.name
  value     REAL
);

CREATE TABLE IF NOT EXISTS events (
  run_id    INTEGER NOT NULL,
  t_ps      INTEGER NOT NULL,
  kind      TEXT NOT NULL,
  entity_id INTEGER NOT NULL,      -- entities
  flow_id   INTEGER,               -- NULL when the event concerns no flow
  value     REAL
);

-- Written in every log level, so 'summary' runs still answer throughput and
-- latency. The four time columns are NULL for a subflow that received nothing.
CREATE TABLE IF NOT EXISTS subflow_summary (
  run_id             INTEGER NOT NULL,
  flow_id            INTEGER NOT NULL,
  dst_port           INTEGER NOT NULL,
  frames             INTEGER NOT NULL,
  bytes              INTEGER NOT NULL,
  first_delivered_ps INTEGER,
  last_delivered_ps  INTEGER,
  latency_sum_ps     INTEGER NOT NULL,
  latency_min_ps     INTEGER,
  latency_max_ps     INTEGER,
  PRIMARY KEY (run_id, flow_id, dst_port)
);

-- One row per delivered copy, with its latency from creation at the source.
-- Source port and priority come from the flow. (Schema version 1 also had
-- t_injected_ps, from a join with frames; join frames on (run_id, frame_id)
-- for it, see db/queries/frames_index.sql.)
CREATE VIEW IF NOT EXISTS v_latency AS
SELECT d.run_id, d.frame_id, d.flow_id, fl.src_port, d.dst_port, d.bytes, fl.priority,
       d.t_created_ps, d.t_delivered_ps,
       d.t_delivered_ps - d.t_created_ps AS latency_ps,
       d.surrogate_levels
FROM deliveries AS d
LEFT JOIN flows AS fl ON fl.run_id = d.run_id AND fl.flow_id = d.flow_id;

-- Every metric `samples` (kind 'series', sampled every
-- record.sample_interval) and `totals` (kind 'total', written once at the
-- run's end) may hold, with its unit (model/recording/metric_catalog.cpp,
-- the one definition; fabricsim writes its rows when it opens a file, and
-- refuses to record a metric that is not there, or for another kind of
-- entity). A family is one row: link_messages_<kind> stands for
-- link_messages_packet, link_messages_credit, ...
CREATE TABLE IF NOT EXISTS metrics (
  name        TEXT PRIMARY KEY,
  unit        TEXT NOT NULL,     -- B, ps, Gb/s, fraction (0..1), 1/s, or what is counted
  kind        TEXT NOT NULL CHECK (kind IN ('series', 'total')),
  platforms   TEXT NOT NULL,     -- the platforms that write it, or 'all'
  entity      TEXT NOT NULL,     -- the kinds of entity (entities.kind) it is recorded for: 'port', 'link, segment'
  description TEXT NOT NULL
);

-- Each sample with its entity's kind and name and its metric's unit; seq
-- is the order recorded (between samples of one time).
CREATE VIEW IF NOT EXISTS v_samples AS
SELECT s.run_id, s.t_ps, s.entity_id, e.kind AS entity_kind, e.name AS entity, e.port_id, s.metric, s.value, m.unit,
       s.rowid AS seq
FROM samples AS s
LEFT JOIN entities AS e ON e.run_id = s.run_id AND e.entity_id = s.entity_id
LEFT JOIN metrics AS m ON m.name = s.metric;

-- Each event with its entity's kind and name; seq is the order recorded
-- (between events of one time).
CREATE VIEW IF NOT EXISTS v_events AS
SELECT v.run_id, v.t_ps, v.kind, v.entity_id, e.kind AS entity_kind, e.name AS entity, e.port_id, v.flow_id, v.value,
       v.rowid AS seq
FROM events AS v
LEFT JOIN entities AS e ON e.run_id = v.run_id AND e.entity_id = v.entity_id;

-- Each run's end-of-run figures with its study and platform, its entity's
-- kind and name, the metric's unit (a family's member, such as
-- link_messages_credit, takes its family's), and the keys the run set
-- against its study (--config, --set, a sweep's: "key=value; ..."): the
-- per-run scalars to put beside their parameters (run_params.number holds
-- each key's value as a number).
CREATE VIEW IF NOT EXISTS v_run_totals AS
SELECT t.run_id, r.study, r.platform, t.entity_id, e.kind AS entity_kind, e.name AS entity, e.port_id, t.metric,
       t.value, coalesce(m.unit, f.unit) AS unit,
       (SELECT group_concat(kv, '; ') FROM (SELECT p.key || '=' || p.value AS kv FROM run_params AS p
                                             WHERE p.run_id = t.run_id AND p.source IN ('config', 'set', 'sweep')
                                             ORDER BY p.key)) AS params
FROM totals AS t
JOIN runs AS r ON r.run_id = t.run_id
LEFT JOIN entities AS e ON e.run_id = t.run_id AND e.entity_id = t.entity_id
LEFT JOIN metrics AS m ON m.name = t.metric
LEFT JOIN metrics AS f ON m.name IS NULL AND f.name GLOB '*<kind>' AND t.metric GLOB replace(f.name, '<kind>', '*');

-- Each link's end-of-run figures with its ends as columns (entities.from_*,
-- to_*, direction, vl) and the metric's unit: the links of the fabric and
-- the backplane, and the ring's segments. A link that carried nothing has
-- no row (a missing row is 0).
CREATE VIEW IF NOT EXISTS v_link_totals AS
SELECT t.run_id, t.entity_id, e.kind AS entity_kind, e.name AS link, e.from_kind, e.from_id, e.to_kind, e.to_id,
       e.direction, e.vl, t.metric, t.value, m.unit
FROM totals AS t
JOIN entities AS e ON e.run_id = t.run_id AND e.entity_id = t.entity_id AND e.kind IN ('link', 'segment')
LEFT JOIN metrics AS m ON m.name = t.metric;

-- Those figures summed per spine (fabric), each direction apart: up is
-- into the spine, from its leaves, down out of it. links: the links with a
-- row; largest: the most one of them had (utilization: the busiest link's).
CREATE VIEW IF NOT EXISTS v_link_totals_per_spine AS
SELECT run_id, CASE WHEN to_kind = 'spine' THEN to_id ELSE from_id END AS spine, direction, metric,
       count(*) AS links, sum(value) AS total, max(value) AS largest, unit
FROM v_link_totals
WHERE to_kind = 'spine' OR from_kind = 'spine'
GROUP BY run_id, spine, direction, metric;

-- ... per leaf (fabric), per kind of its other end (peer_kind: spine for
-- its uplinks, port for its CNAs' links) and direction (up: from the CNAs
-- into the leaf and from the leaf to the spines; down: the other way).
CREATE VIEW IF NOT EXISTS v_link_totals_per_leaf AS
SELECT run_id, CASE WHEN from_kind = 'leaf' THEN from_id ELSE to_id END AS leaf,
       CASE WHEN from_kind = 'leaf' THEN to_kind ELSE from_kind END AS peer_kind, direction, metric,
       count(*) AS links, sum(value) AS total, max(value) AS largest, unit
FROM v_link_totals
WHERE from_kind = 'leaf' OR to_kind = 'leaf'
GROUP BY run_id, leaf, peer_kind, direction, metric;

-- ... per kind of link: its ends' kinds and its direction (fabric: leaf to
-- spine up, spine to leaf down, port to leaf up, leaf to port down;
-- backplane: station to switch, switch to station; ring: station or bridge
-- to station or bridge).
CREATE VIEW IF NOT EXISTS v_link_totals_per_direction AS
SELECT run_id, from_kind, to_kind, direction, metric,
       count(*) AS links, sum(value) AS total, max(value) AS largest, unit
FROM v_link_totals
GROUP BY run_id, from_kind, to_kind, direction, metric;

-- Throughput per subflow (flow, destination port) in windows of the run's
-- record.sample_interval, the windows of its occupancy samples: window k
-- covers [k, k + 1) x window_ps. Windows in which the subflow received
-- nothing have no row; runs recorded with --record summary or with
-- record.sample_interval 0 have none. Another window: db/queries/
-- subflow_throughput.sql (@window_ps).
CREATE VIEW IF NOT EXISTS v_subflow_windows AS
SELECT d.run_id, d.flow_id, d.dst_port, d.t_delivered_ps / w.window_ps AS window, w.window_ps,
       count(*) AS frames, sum(d.bytes) AS bytes, sum(d.bytes) * 8000.0 / w.window_ps AS gbps
FROM deliveries AS d
JOIN (SELECT run_id, CAST(number AS INTEGER) AS window_ps FROM run_params
      WHERE key = 'record.sample_interval' AND number > 0) AS w ON w.run_id = d.run_id
GROUP BY d.run_id, d.flow_id, d.dst_port, d.t_delivered_ps / w.window_ps;

-- Closed-loop jobs (traffic/jobs/): a collective such as all-reduce, or a
-- schedule read from a GOAL file, run by a set of ranks (user ports), each
-- rank a list of send, recv and calc operations. Written when the run ends,
-- in every log level; what had not completed by then has NULL end times.
-- algbw and busbw are NCCL-tests' figures.
CREATE TABLE IF NOT EXISTS jobs (
  run_id               INTEGER NOT NULL REFERENCES runs(run_id),
  job_id               INTEGER NOT NULL,  -- 0, 1, ... in the order of the jobs' names
  name                 TEXT NOT NULL,     -- NAME of its job.NAME.* keys
  collective           TEXT NOT NULL,     -- allreduce, allgather, ...; goal: a schedule from a file
  algorithm            TEXT NOT NULL,     -- ring, tree, ...; goal: the file's name
  ranks                INTEGER NOT NULL,  -- job_ranks rows
  bytes                INTEGER,           -- the collective's size as NCCL-tests defines it; NULL for none (goal)
  iterations           INTEGER NOT NULL,
  steps                INTEGER NOT NULL,  -- the algorithm's steps over every iteration (job_operations.step < steps)
  operations           INTEGER NOT NULL,  -- of all its ranks
  completed_operations INTEGER NOT NULL,  -- of those, completed by the run's end
  start_ps             INTEGER NOT NULL,
  end_ps               INTEGER,           -- the last operation's end; NULL: not every operation completed
  time_ps              INTEGER,           -- end_ps - start_ps; NULL with end_ps
  algbw_gbps           REAL,              -- the collective's bytes x iterations over time_ps; NULL without end_ps or bytes
  busbw_gbps           REAL,              -- algbw_gbps x the collective's bus factor; NULL with algbw_gbps
  PRIMARY KEY (run_id, job_id)
);

CREATE TABLE IF NOT EXISTS job_ranks (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id),
  job_id  INTEGER NOT NULL,
  rank    INTEGER NOT NULL,       -- 0 .. jobs.ranks - 1
  port_id INTEGER NOT NULL,       -- the user port it runs at
  end_ps  INTEGER,                -- its last operation's end; NULL: not all its operations completed
  PRIMARY KEY (run_id, job_id, rank)
);

-- Every operation of every rank, with its times; a bulk table (no key, see
-- the indexes). A send's bytes go to rank peer, or to the members of
-- multicast_group (one multicast flow); a recv completes when the bytes of
-- its matching send (same peer and tag) have arrived; a calc moves nothing
-- and lasts end_ps - start_ps.
CREATE TABLE IF NOT EXISTS job_operations (
  run_id          INTEGER NOT NULL,
  job_id          INTEGER NOT NULL,
  rank            INTEGER NOT NULL,
  op              INTEGER NOT NULL,  -- its index among its rank's operations, from 0
  kind            TEXT NOT NULL CHECK (kind IN ('send', 'recv', 'calc')),
  peer            INTEGER,           -- send: the destination rank, recv: the source rank; NULL: calc, multicast send
  multicast_group INTEGER,           -- a multicast send's group; NULL otherwise
  bytes           INTEGER NOT NULL,  -- send, recv: the message's payload; calc: 0
  step            INTEGER NOT NULL,  -- the algorithm's step, counted over iterations (goal: 0)
  tag             INTEGER NOT NULL,  -- pairs a send with its recv
  start_ps        INTEGER,           -- NULL: never started
  end_ps          INTEGER            -- NULL: never completed
);

-- Each step of each job: its operations, the payload its sends sent, and
-- when it ran: from the first start of its sends and calcs (a recv starts
-- when it is posted, in a ring at the job's start: its recvs count only in
-- a step that has nothing else) to its last operation's end. Steps of a
-- pipelined algorithm overlap. A step with an operation that never
-- completed has no last_end_ps and no duration_ps.
CREATE VIEW IF NOT EXISTS v_job_steps AS
SELECT run_id, job_id, step, operations, completed_operations, bytes_sent, first_start_ps, last_end_ps,
       last_end_ps - first_start_ps AS duration_ps
FROM (SELECT run_id, job_id, step,
             count(*) AS operations,
             count(end_ps) AS completed_operations,
             coalesce(sum(bytes) FILTER (WHERE kind = 'send'), 0) AS bytes_sent,
             coalesce(min(start_ps) FILTER (WHERE kind <> 'recv'), min(start_ps)) AS first_start_ps,
             CASE WHEN count(end_ps) = count(*) THEN max(end_ps) END AS last_end_ps
      FROM job_operations
      GROUP BY run_id, job_id, step);

-- Each rank of each job: its port, its operations, the payload it sent and
-- received, and its time from the job's start to its last operation's end
-- (NULL when not all its operations completed): the largest is the job's.
CREATE VIEW IF NOT EXISTS v_job_ranks AS
SELECT r.run_id, r.job_id, r.rank, r.port_id,
       count(o.op) AS operations,
       count(o.end_ps) AS completed_operations,
       coalesce(sum(o.bytes) FILTER (WHERE o.kind = 'send'), 0) AS bytes_sent,
       coalesce(sum(o.bytes) FILTER (WHERE o.kind = 'recv'), 0) AS bytes_received,
       r.end_ps,
       r.end_ps - j.start_ps AS time_ps
FROM job_ranks AS r
JOIN jobs AS j ON j.run_id = r.run_id AND j.job_id = r.job_id
LEFT JOIN job_operations AS o ON o.run_id = r.run_id AND o.job_id = r.job_id AND o.rank = r.rank
GROUP BY r.run_id, r.job_id, r.rank;

-- Parameter studies run by scripts/fabricsim-sweep (docs/guide.md,
-- "Sweeps"): a sweep, the run of each point merged in, the swept values of
-- each such run, and the points that failed. A point's run is merged whole
-- or not at all, and once: (sweep_id, point_key) is its identity.
CREATE TABLE IF NOT EXISTS sweeps (
  sweep_id   INTEGER PRIMARY KEY,
  study      TEXT NOT NULL,
  definition TEXT NOT NULL,     -- the swept keys and values, one dimension per line
  base       TEXT NOT NULL,     -- the options every point shares (--config, --set, --time, ...)
  points     INTEGER NOT NULL,
  UNIQUE (study, definition, base)
);

CREATE TABLE IF NOT EXISTS sweep_runs (
  sweep_id  INTEGER NOT NULL REFERENCES sweeps(sweep_id),
  point     INTEGER NOT NULL,   -- 1 .. points
  point_key TEXT NOT NULL,      -- "key=value; key=value"
  run_id    INTEGER NOT NULL REFERENCES runs(run_id),
  PRIMARY KEY (sweep_id, point_key)
);

CREATE TABLE IF NOT EXISTS sweep_values (
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  key    TEXT NOT NULL,         -- a swept key (sim.seed for repetitions)
  value  TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);

CREATE TABLE IF NOT EXISTS sweep_failures (
  sweep_id    INTEGER NOT NULL REFERENCES sweeps(sweep_id),
  point       INTEGER NOT NULL,
  point_key   TEXT NOT NULL,
  exit_status INTEGER NOT NULL, -- fabricsim's; 128 + N for a signal
  output_tail TEXT NOT NULL,    -- the last lines of its output
  PRIMARY KEY (sweep_id, point_key)
);

-- Goal-seeking searches run by scripts/fabricsim-search (docs/guide.md,
-- "Searches"): a search, the sweeps that ran its designs (each design's
-- runs are sweep runs, with its values in sweep_values), and each trial:
-- its design, its objectives (JSON, in the order declared) and whether it
-- met the constraints, and per combination of the robustness axes the mean
-- of each figure over the seeds with its 95 % half-width. The search's
-- Optuna study is in the same file, in Optuna's own tables (studies,
-- trials, ...), named fabricsim-search-<search_id>.
CREATE TABLE IF NOT EXISTS searches (
  search_id   INTEGER PRIMARY KEY,
  study       TEXT NOT NULL,
  declaration TEXT NOT NULL,    -- vary, minimize, maximize and subject-to lines
  base        TEXT NOT NULL,    -- the options every run shares
  seeds       INTEGER NOT NULL, -- runs per design and combination, seeds 1 .. seeds
  UNIQUE (study, declaration, base, seeds)
);

CREATE TABLE IF NOT EXISTS search_sweeps (
  search_id INTEGER NOT NULL REFERENCES searches(search_id),
  sweep_id  INTEGER NOT NULL REFERENCES sweeps(sweep_id),
  PRIMARY KEY (search_id, sweep_id)
);

CREATE TABLE IF NOT EXISTS search_trials (
  search_id  INTEGER NOT NULL REFERENCES searches(search_id),
  trial      INTEGER NOT NULL,  -- Optuna's trial number, from 0
  design     TEXT NOT NULL,     -- "key=value; key=value"
  status     TEXT NOT NULL CHECK (status IN ('complete', 'failed', 'refused')),  -- refused: fabricsim refused
                                                                            -- the design's values
  feasible   INTEGER,           -- 1: every constraint met at its interval's pessimistic end
  objectives TEXT,              -- JSON list: each objective's worst value over the combinations
  runs       TEXT,              -- its run ids, space separated
  PRIMARY KEY (search_id, trial)
);

CREATE TABLE IF NOT EXISTS search_figures (
  search_id   INTEGER NOT NULL REFERENCES searches(search_id),
  trial       INTEGER NOT NULL,
  combination TEXT NOT NULL,    -- the robustness axes' values, "key=value; ..."; '' without any
  name        TEXT NOT NULL,    -- an objective's or a constraint's figure
  mean        REAL,             -- over the seeds
  half_width  REAL,             -- of its 95 % interval; 0 with one seed
  seeds       INTEGER NOT NULL,
  PRIMARY KEY (search_id, trial, combination, name)
);

-- Indexes: present at all times, kept up row by row as a run loads, so that
-- no stop at any moment leaves a file without them (they are created when a
-- file is opened, if missing). They cost 1-2 % of a full-system run's wall
-- time (docs/performance.md).
--
-- frames and deliveries have none: queries over a run scan it (0.65 s per
-- 5 M rows), and an index on run_id made that scan slower, not faster
-- (0.78 s). Whoever looks up many single frames or joins frames with
-- deliveries can add frames_by_id once (db/queries/frames_index.sql, 4.6 s
-- for 5 M frames); later runs then keep it up as they load, which slows
-- their recording (docs/database.md).
CREATE INDEX IF NOT EXISTS drops_by_run ON drops(run_id);
CREATE INDEX IF NOT EXISTS events_by_run ON events(run_id, kind);
CREATE INDEX IF NOT EXISTS samples_by_series ON samples(run_id, metric, entity_id);
CREATE INDEX IF NOT EXISTS totals_by_run ON totals(run_id, metric);
CREATE INDEX IF NOT EXISTS job_operations_by_rank ON job_operations(run_id, job_id, rank, op);
