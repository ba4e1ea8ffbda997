-- Per-subflow receive throughput over time.
--
-- Answers: in run @run, how many Gb/s did each subflow (flow_id, dst_port)
-- receive in each window of @window_ps picoseconds? A copy counts, with its
-- frame's bytes, in the window holding its delivery time. Every subflow gets
-- a row for every window from 0 to the run's end (runs.sim_time_ps, or the
-- last delivery while the run is still going), 0 Gb/s when nothing arrived.
-- A last window cut short by the end of the run is still divided by the
-- full @window_ps.
--
-- Parameters:
--   @run        run_id (list them: SELECT run_id, study, status FROM runs;)
--   @window_ps  window length in picoseconds, an integer (1000000 = 1 us)
--
-- Usage:
--   sqlite3 -header -column fabric.db \
--     -cmd '.parameter set @run 1' -cmd '.parameter set @window_ps 1000000' \
--     '.read db/queries/subflow_throughput.sql'
--
-- Columns: flow_id, flow_name, dst_port, window (0, 1, ...), window_start_ps,
--   bytes, gbps (= bytes * 8 / window_ps * 1000, since 1 bit/ps = 1000 Gb/s).
-- Needs log level 'frames' (deliveries); 'summary' runs have subflow_summary.
WITH RECURSIVE
  subflows(flow_id, dst_port) AS (
    SELECT flow_id, dst_port FROM flow_dests WHERE run_id = @run
    UNION
    SELECT DISTINCT flow_id, dst_port FROM deliveries WHERE run_id = @run
  ),
  run_end(last_window) AS (
    SELECT CAST(max(coalesce((SELECT sim_time_ps - 1 FROM runs WHERE run_id = @run), -1),
                    coalesce((SELECT max(t_delivered_ps) FROM deliveries WHERE run_id = @run), -1))
                / @window_ps AS INTEGER)
  ),
  windows(w) AS (
    SELECT 0 FROM run_end WHERE last_window >= 0
    UNION ALL
    SELECT w + 1 FROM windows WHERE w < (SELECT last_window FROM run_end)
  ),
  received(flow_id, dst_port, w, bytes) AS (
    SELECT flow_id, dst_port, CAST(t_delivered_ps / @window_ps AS INTEGER), sum(bytes)
    FROM deliveries
    WHERE run_id = @run
    GROUP BY 1, 2, 3
  )
SELECT s.flow_id,
       fl.name AS flow_name,
       s.dst_port,
       w.w AS window,
       w.w * @window_ps AS window_start_ps,
       coalesce(r.bytes, 0) AS bytes,
       coalesce(r.bytes, 0) * 8000.0 / @window_ps AS gbps
FROM subflows AS s
CROSS JOIN windows AS w
LEFT JOIN received AS r ON r.flow_id = s.flow_id AND r.dst_port = s.dst_port AND r.w = w.w
LEFT JOIN flows AS fl ON fl.run_id = @run AND fl.flow_id = s.flow_id
ORDER BY s.flow_id, s.dst_port, w.w;
