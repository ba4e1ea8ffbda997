-- Latency percentiles per flow and per surrogate level.
--
-- Answers: in run @run, for each flow and each number of surrogate levels a
-- copy went through (deliveries.surrogate_levels), what latency did the
-- copies see: median, p99, p99.9, minimum, maximum and mean, in nanoseconds?
-- Same nearest-rank percentiles as latency_percentiles.sql.
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/latency_percentiles_by_level.sql'
--
-- Columns: flow_id, flow_name, surrogate_levels, deliveries, p50_ns, p99_ns,
--   p999_ns, min_ns, max_ns, mean_ns.
-- Needs log level 'frames'.
WITH ranked AS (
  SELECT flow_id,
         surrogate_levels,
         t_delivered_ps - t_created_ps AS latency_ps,
         row_number() OVER (PARTITION BY flow_id, surrogate_levels ORDER BY t_delivered_ps - t_created_ps) AS rank,
         count(*) OVER (PARTITION BY flow_id, surrogate_levels) AS n
  FROM deliveries
  WHERE run_id = @run
)
SELECT r.flow_id,
       fl.name AS flow_name,
       r.surrogate_levels,
       max(r.n) AS deliveries,
       max(CASE WHEN r.rank = (r.n + 1) / 2 THEN r.latency_ps END) / 1000.0 AS p50_ns,
       max(CASE WHEN r.rank = (99 * r.n + 99) / 100 THEN r.latency_ps END) / 1000.0 AS p99_ns,
       max(CASE WHEN r.rank = (999 * r.n + 999) / 1000 THEN r.latency_ps END) / 1000.0 AS p999_ns,
       min(r.latency_ps) / 1000.0 AS min_ns,
       max(r.latency_ps) / 1000.0 AS max_ns,
       avg(r.latency_ps) / 1000.0 AS mean_ns
FROM ranked AS r
LEFT JOIN flows AS fl ON fl.run_id = @run AND fl.flow_id = r.flow_id
GROUP BY r.flow_id, r.surrogate_levels
ORDER BY r.flow_id, r.surrogate_levels;
