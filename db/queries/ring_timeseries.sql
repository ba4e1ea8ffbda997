-- The QuickRing ring's time series (platform ring, E14; E14adaptive): every
-- sample interval, the senders' mean SPQ length and limit q, and the payload
-- multicast in that interval.
--
-- Answers: does the adaptive limit follow the changes of pattern and load,
-- and does throughput stay stable? q_mean and spq_mean are samples the run
-- writes every record.sample_interval (entity 'ring'; q = 0 means no
-- limit); throughput counts each packet once, by its delivery at its own
-- source (deliveries with dst_port = flow_id: a station's flow is its id),
-- which needs the full log level.
--
-- Parameters: @run (a run id; NULL: every ring run).
--
-- Usage:
--   sqlite3 -header -column e14.db '.parameter set @run 101' '.read db/queries/ring_timeseries.sql'
--
-- Columns: run_id, t_us, q_mean, spq_mean, throughput_gbps.
WITH q AS (
  SELECT run_id, t_ps, value AS q_mean
  FROM v_samples
  WHERE entity = 'ring' AND metric = 'q_mean' AND (@run IS NULL OR run_id = @run)
),
period AS (  -- the sample interval: the first sample comes one interval in
  SELECT run_id, min(t_ps) AS ps FROM q GROUP BY run_id
),
multicast AS (  -- payload delivered at its own source, by the interval it ends
  SELECT d.run_id, ((d.t_delivered_ps - 1) / p.ps + 1) * p.ps AS t_ps, sum(d.bytes) AS bytes
  FROM deliveries d JOIN period p ON p.run_id = d.run_id
  WHERE d.dst_port = d.flow_id
  GROUP BY 1, 2
)
SELECT q.run_id,
       round(q.t_ps / 1e6, 1) AS t_us,
       round(q.q_mean, 2) AS q_mean,
       round(s.value, 2) AS spq_mean,
       round(coalesce(m.bytes, 0) * 8.0 / p.ps * 1000, 3) AS throughput_gbps
FROM q
JOIN period p ON p.run_id = q.run_id
LEFT JOIN v_samples s ON s.run_id = q.run_id AND s.entity = 'ring' AND s.metric = 'spq_mean' AND s.t_ps = q.t_ps
LEFT JOIN multicast m ON m.run_id = q.run_id AND m.t_ps = q.t_ps
ORDER BY q.run_id, q.t_ps;
