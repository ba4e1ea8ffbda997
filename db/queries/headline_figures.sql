-- A run's headline figures, one row each: what scripts/equivalence compares
-- between two builds, and what every platform's run answers.
--
-- Answers: in run @run, how fast did its subflows receive (the mean and the
-- slowest, over the whole simulated time), how long did copies take (mean,
-- p99 and maximum), how many copies arrived, and how many were dropped?
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/headline_figures.sql'
--
-- Columns: figure, unit, value. Throughput is frame bytes over the run's
-- simulated time (a subflow that received nothing counts as 0). p99 needs
-- log level 'frames' (NULL in a 'summary' run); the others come from
-- subflow_summary, written in both.
WITH
  run AS (SELECT sim_time_ps FROM runs WHERE run_id = @run),
  subflow AS (
    SELECT s.bytes * 8000.0 / (SELECT sim_time_ps FROM run) AS gbps, s.frames, s.latency_sum_ps, s.latency_max_ps
    FROM subflow_summary AS s WHERE s.run_id = @run
  ),
  ranked AS (
    SELECT t_delivered_ps - t_created_ps AS latency_ps,
           row_number() OVER (ORDER BY t_delivered_ps - t_created_ps) AS rank,
           count(*) OVER () AS n
    FROM deliveries WHERE run_id = @run
  )
SELECT 'subflow_gbps_mean' AS figure, 'Gb/s' AS unit, (SELECT avg(gbps) FROM subflow) AS value
UNION ALL SELECT 'subflow_gbps_min', 'Gb/s', (SELECT min(gbps) FROM subflow)
UNION ALL SELECT 'latency_mean', 'ns', (SELECT sum(latency_sum_ps) / 1000.0 / nullif(sum(frames), 0) FROM subflow)
UNION ALL SELECT 'latency_p99', 'ns', (SELECT latency_ps / 1000.0 FROM ranked WHERE rank = (99 * n + 99) / 100)
UNION ALL SELECT 'latency_max', 'ns', (SELECT max(latency_max_ps) / 1000.0 FROM subflow)
UNION ALL SELECT 'copies_delivered', 'copies', (SELECT sum(frames) FROM subflow)
UNION ALL SELECT 'drops', 'copies', (SELECT count(*) FROM drops WHERE run_id = @run);
