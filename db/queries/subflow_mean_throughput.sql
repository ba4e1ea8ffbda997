-- Mean receive throughput of each subflow over an interval.
--
-- Answers: in run @run, how many Gb/s did each subflow (flow_id, dst_port)
-- receive on average between @from_ps (included) and @to_ps (excluded)?
-- A copy counts, with its frame's bytes, if its delivery time is in the
-- interval. Subflows that received nothing there get 0.
--
-- Parameters:
--   @run      run_id
--   @from_ps  interval start in picoseconds (e.g. after the warm-up)
--   @to_ps    interval end in picoseconds, greater than @from_ps
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     -cmd '.parameter set @from_ps 100000000' -cmd '.parameter set @to_ps 500000000' \
--     '.read db/queries/subflow_mean_throughput.sql'
--
-- Columns: flow_id, flow_name, dst_port, frames, bytes,
--   gbps (= bytes * 8 / (to_ps - from_ps) * 1000).
-- Needs log level 'frames'. For a 'summary' run, the whole-run equivalent is
--   SELECT flow_id, dst_port, bytes * 8000.0 / (last_delivered_ps - first_delivered_ps)
--   FROM subflow_summary WHERE run_id = @run;
WITH
  subflows(flow_id, dst_port) AS (
    SELECT flow_id, dst_port FROM flow_dests WHERE run_id = @run
    UNION
    SELECT DISTINCT flow_id, dst_port FROM deliveries WHERE run_id = @run
  ),
  received(flow_id, dst_port, frames, bytes) AS (
    SELECT flow_id, dst_port, count(*), sum(bytes)
    FROM deliveries
    WHERE run_id = @run AND t_delivered_ps >= @from_ps AND t_delivered_ps < @to_ps
    GROUP BY flow_id, dst_port
  )
SELECT s.flow_id,
       fl.name AS flow_name,
       s.dst_port,
       coalesce(r.frames, 0) AS frames,
       coalesce(r.bytes, 0) AS bytes,
       coalesce(r.bytes, 0) * 8000.0 / (@to_ps - @from_ps) AS gbps
FROM subflows AS s
LEFT JOIN received AS r ON r.flow_id = s.flow_id AND r.dst_port = s.dst_port
LEFT JOIN flows AS fl ON fl.run_id = @run AND fl.flow_id = s.flow_id
ORDER BY s.flow_id, s.dst_port;
