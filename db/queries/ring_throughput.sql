-- Throughput, tickets, retracts and latency of each run of the QuickRing
-- ring (platform ring, E14).
--
-- Answers: for every ring run in the file, with its groups, pattern,
-- flow-control mechanisms and offered load: how much payload was delivered
-- per second (each packet once), how many tickets and retracts a packet
-- took, and how long a packet waited for its reservation (host arrival to
-- authorisation) and then for delivery (authorisation to delivery at the
-- other members)? Throughput, attempts and retracts are totals the run
-- writes at its end (entity 'ring'), in both log levels; the latencies need
-- the full log level (frames and deliveries).
--
-- mechanisms: none, delay (delayed retry), delay+backoff, q=N+delay (a
-- fixed limit and delayed retry), adaptive+delay+backoff (all), or what
-- else the run set; +bridge_fc on several rings with bridge flow control.
--
-- Parameters: none.
--
-- Usage:
--   sqlite3 -header -column e14.db '.read db/queries/ring_throughput.sql'
--
-- Columns: run_id, rings, groups, placement (where the groups sit and who
--   sends, when not every ring: 'groups on rings 0-1;0,2 senders on 0'), pattern, mechanisms, q, offered_gbps,
--   schedule (what changes over the run: load, pattern, load+pattern or ''),
--   throughput_gbps, tickets_per_packet, retracts_per_packet,
--   reservation_us, queueing_us.
WITH RECURSIVE lines(run_id, line, rest) AS (
  SELECT run_id, '', config || char(10) FROM runs
  UNION ALL
  SELECT run_id, substr(rest, 1, instr(rest, char(10)) - 1), substr(rest, instr(rest, char(10)) + 1)
  FROM lines WHERE rest <> ''
),
keys AS (
  SELECT run_id, substr(line, 1, instr(line, ' = ') - 1) AS key, substr(line, instr(line, ' = ') + 3) AS value
  FROM lines WHERE instr(line, ' = ') > 0
),
ring_runs AS (
  SELECT run_id,
         max(CASE WHEN key = 'ring.rings' THEN CAST(value AS INTEGER) END) AS rings,
         max(CASE WHEN key = 'ring.bridge_fc' THEN value END) AS bridge_fc,
         max(CASE WHEN key = 'ring.groups' THEN value END) AS groups,
         coalesce(max(CASE WHEN key = 'ring.group_rings' THEN value END), '') AS group_rings,
         coalesce(max(CASE WHEN key = 'ring.sender_rings' THEN value END), '') AS sender_rings,
         max(CASE WHEN key = 'ring.pattern' THEN value END) AS pattern,
         max(CASE WHEN key = 'ring.q' THEN CAST(value AS INTEGER) END) AS q,
         max(CASE WHEN key = 'ring.q_adaptive' THEN value END) AS adaptive,
         max(CASE WHEN key = 'ring.delayed_retry' THEN value END) AS delayed,
         max(CASE WHEN key = 'ring.backoff' THEN value END) AS backoff,
         max(CASE WHEN key = 'traffic.load_gbps' THEN CAST(value AS REAL) END) AS offered_gbps,
         max(CASE WHEN key = 'traffic.load_schedule' AND value <> '' THEN 'load' END) AS load_phases,
         max(CASE WHEN key = 'ring.pattern_schedule' AND value <> '' THEN 'pattern' END) AS pattern_phases
  FROM keys GROUP BY run_id
  HAVING max(CASE WHEN key = 'platform' THEN value END) = 'ring'
),
metric AS (
  SELECT run_id, metric, value FROM v_run_totals WHERE entity = 'ring'
),
reservation AS (  -- host arrival to authorisation
  SELECT run_id, avg(t_injected_ps - t_created_ps) AS ps FROM frames
  WHERE t_injected_ps IS NOT NULL AND run_id IN (SELECT run_id FROM ring_runs) GROUP BY run_id
),
queueing AS (  -- authorisation to delivery at the other members: one join for every run
  SELECT d.run_id, avg(d.t_delivered_ps - f.t_injected_ps) AS ps
  FROM deliveries d JOIN frames f ON f.run_id = d.run_id AND f.frame_id = d.frame_id
  WHERE d.dst_port <> d.flow_id AND d.run_id IN (SELECT run_id FROM ring_runs)
  GROUP BY d.run_id
)
SELECT r.run_id, r.rings, r.groups,
       trim(CASE WHEN r.group_rings <> '' THEN 'groups on rings ' || r.group_rings ELSE '' END ||
            CASE WHEN r.sender_rings <> '' THEN ' senders on ' || r.sender_rings ELSE '' END) AS placement,
       r.pattern,
       CASE WHEN r.adaptive = 'true' THEN 'adaptive' ELSE CASE WHEN r.q > 0 THEN 'q=' || r.q ELSE '' END END ||
       CASE WHEN r.delayed = 'true' THEN '+delay' ELSE '' END ||
       CASE WHEN r.backoff = 'true' THEN '+backoff' ELSE '' END ||
       CASE WHEN r.rings > 1 AND r.bridge_fc = 'true' THEN '+bridge_fc' ELSE '' END AS mechanisms,
       r.q, r.offered_gbps,
       coalesce(r.load_phases || '+' || r.pattern_phases, r.load_phases, r.pattern_phases, '') AS schedule,
       round((SELECT value FROM metric m WHERE m.run_id = r.run_id AND m.metric = 'throughput_gbps'), 3)
           AS throughput_gbps,
       round((SELECT value FROM metric m WHERE m.run_id = r.run_id AND m.metric = 'tickets') /
             max(1, (SELECT value FROM metric m WHERE m.run_id = r.run_id AND m.metric = 'packets_sent')), 3)
           AS tickets_per_packet,
       round((SELECT value FROM metric m WHERE m.run_id = r.run_id AND m.metric = 'retracts') /
             max(1, (SELECT value FROM metric m WHERE m.run_id = r.run_id AND m.metric = 'packets_sent')), 4)
           AS retracts_per_packet,
       round(res.ps / 1e6, 2) AS reservation_us,
       round(que.ps / 1e6, 2) AS queueing_us
FROM ring_runs r
LEFT JOIN reservation res ON res.run_id = r.run_id
LEFT JOIN queueing que ON que.run_id = r.run_id
ORDER BY r.rings, placement, r.groups, r.pattern, mechanisms, r.offered_gbps, r.q;
