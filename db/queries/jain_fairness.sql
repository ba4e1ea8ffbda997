-- Jain's fairness index of subflow throughput, per time window.
--
-- Answers: in run @run, how evenly did the subflows share bandwidth in each
-- window of @window_ps picoseconds? J = (sum x)^2 / (n * sum x^2) over the
-- n subflows' received bytes x in the window: 1 when all are equal, 1/n when
-- one subflow gets everything; NULL when none received anything. Subflows
-- that received nothing in a window count as x = 0. Windows as in
-- subflow_throughput.sql.
--
-- Parameters:
--   @run        run_id
--   @window_ps  window length in picoseconds, an integer
--   @dst_port   optional: only the subflows to this destination port (the
--               usual question for a congested output); unset = all subflows
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     -cmd '.parameter set @window_ps 10000000' '.read db/queries/jain_fairness.sql'
--
-- Columns: window, window_start_ps, subflows, total_gbps, jain_index.
-- Needs log level 'frames'.
WITH RECURSIVE
  subflows(flow_id, dst_port) AS (
    SELECT flow_id, dst_port FROM (
      SELECT flow_id, dst_port FROM flow_dests WHERE run_id = @run
      UNION
      SELECT DISTINCT flow_id, dst_port FROM deliveries WHERE run_id = @run
    )
    WHERE @dst_port IS NULL OR dst_port = @dst_port
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
  ),
  shares(w, x) AS (
    SELECT w.w, coalesce(r.bytes, 0) * 1.0
    FROM subflows AS s
    CROSS JOIN windows AS w
    LEFT JOIN received AS r ON r.flow_id = s.flow_id AND r.dst_port = s.dst_port AND r.w = w.w
  )
SELECT w AS window,
       w * @window_ps AS window_start_ps,
       count(*) AS subflows,
       sum(x) * 8000.0 / @window_ps AS total_gbps,
       CASE WHEN sum(x * x) > 0 THEN sum(x) * sum(x) / (count(*) * sum(x * x)) END AS jain_index
FROM shares
GROUP BY w
ORDER BY w;
