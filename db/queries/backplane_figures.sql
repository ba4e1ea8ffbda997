-- The backplane study's figures (platforms.md, E12), one row per run.
--
-- Answers: for every backplane run in the file, with its memory and 802.3x
-- settings: the throughput (frame bytes received by all stations, from
-- backplane.warmup on), the frames discarded, the PAUSE frames per second on
-- the busiest station link and their share of it, the latency from the
-- first byte out of the source application to the last byte into the sink
-- (mean, p99, max; the p99 from a histogram of ~2 % bins) and the most
-- memory the switch held. The run writes these figures as totals at its
-- end (entity 'backplane' and 'switch'), so they need no per-frame data.
--
-- Parameters: none.
--
-- Usage:
--   sqlite3 -header -column fabric.db '.read db/queries/backplane_figures.sql'
--
-- Columns: run_id, study, memory, pause, xoff, throughput_gbps, discards,
--   pause_per_s, pause_share, latency_mean_us, latency_p99_us,
--   latency_max_us, max_memory_bytes.
-- Works in both log levels.
WITH
  setting(run_id, key, value) AS (
    SELECT run_id, 'memory', rtrim(substr(config, instr(config, char(10) || 'backplane.memory = ') + 20, 12), char(10))
    FROM runs
    UNION ALL
    SELECT run_id, 'pause', substr(config, instr(config, char(10) || 'backplane.pause = ') + 19, 5)
    FROM runs
    UNION ALL
    SELECT run_id, 'xoff', substr(config, instr(config, char(10) || 'backplane.xoff = ') + 18, 12)
    FROM runs
  ),
  figure(run_id, metric, value) AS (
    SELECT run_id, metric, value FROM v_run_totals
    WHERE entity IN ('backplane', 'switch') AND metric IN ('throughput_gbps', 'latency_mean_ps', 'latency_p99_ps',
                                                           'latency_max_ps', 'pause_per_second', 'pause_share',
                                                           'memory_peak_bytes',
                                                           'discards')
  )
SELECT r.run_id,
       r.study,
       (SELECT substr(value, 1, instr(value || char(10), char(10)) - 1) FROM setting s WHERE s.run_id = r.run_id AND key = 'memory') AS memory,
       (SELECT substr(value, 1, instr(value || char(10), char(10)) - 1) FROM setting s WHERE s.run_id = r.run_id AND key = 'pause') AS pause,
       (SELECT substr(value, 1, instr(value || char(10), char(10)) - 1) FROM setting s WHERE s.run_id = r.run_id AND key = 'xoff') AS xoff,
       round((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'throughput_gbps'), 3) AS throughput_gbps,
       CAST((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'discards') AS INTEGER) AS discards,
       round((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'pause_per_second'), 0) AS pause_per_s,
       round((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'pause_share'), 5) AS pause_share,
       round((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'latency_mean_ps') / 1e6, 2) AS latency_mean_us,
       round((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'latency_p99_ps') / 1e6, 2) AS latency_p99_us,
       round((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'latency_max_ps') / 1e6, 2) AS latency_max_us,
       CAST((SELECT value FROM figure f WHERE f.run_id = r.run_id AND metric = 'memory_peak_bytes') AS INTEGER) AS max_memory_bytes
FROM runs r
WHERE instr(r.config, char(10) || 'platform = backplane' || char(10)) > 0
ORDER BY r.run_id;
