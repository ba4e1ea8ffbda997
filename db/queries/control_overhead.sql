-- Control overhead of the request-grant-ACK protocol, and how long remote
-- copies hold their header and payload.
--
-- Answers: in run @run, how many requests, grants, ACKs and cancels reached
-- a port (after coalescing, leaf.control.*), how many messages rode in
-- another of their VOQ, how many control bytes (10 B each) each delivered
-- copy cost, and the mean time from a remote copy's admission at its source
-- port to its ACK? The counters are samples with metric 'control_messages'
-- and 'control_merged' (entity 'leaf<L>'), 'remote_copies_acked' and
-- 'remote_copy_hold_ps' (entity 'port<N>'), cumulative since the start of
-- the run; the last sample of each entity is its total.
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/control_overhead.sql'
--
-- Columns: control_messages, merged, copies_delivered, control_bytes_per_copy,
--   hold_ns (mean, remote copies).
-- Works in both log levels (copies from subflow_summary).
WITH last AS (
  SELECT metric, value,
         ROW_NUMBER() OVER (PARTITION BY entity_id, metric ORDER BY t_ps DESC) AS rn
  FROM samples
  WHERE run_id = @run
    AND metric IN ('control_messages', 'control_merged', 'remote_copies_acked', 'remote_copy_hold_ps')
),
totals AS (
  SELECT SUM(CASE WHEN metric = 'control_messages' THEN value END) AS control_messages,
         SUM(CASE WHEN metric = 'control_merged' THEN value END) AS merged,
         SUM(CASE WHEN metric = 'remote_copies_acked' THEN value END) AS remote_acked,
         SUM(CASE WHEN metric = 'remote_copy_hold_ps' THEN value END) AS hold_ps
  FROM last WHERE rn = 1
),
copies AS (SELECT SUM(frames) AS n FROM subflow_summary WHERE run_id = @run)
SELECT t.control_messages, t.merged, c.n AS copies_delivered,
       ROUND(t.control_messages * 10.0 / c.n, 2) AS control_bytes_per_copy,
       ROUND(t.hold_ps / t.remote_acked / 1000.0, 1) AS hold_ns
FROM totals t, copies c;
