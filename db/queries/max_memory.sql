-- Shared memory of a backplane switch: the most it held, and the samples.
--
-- Answers: in run @run, what was the switch's largest memory occupancy
-- (exact: the peak over every admission, total 'memory_peak_bytes' at the
-- end of the run), the largest and mean sampled occupancy (every
-- record.sample_interval, sample 'memory_bytes'), and how many frames did
-- it discard for want of room?
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/max_memory.sql'
--
-- Columns: peak_bytes, sampled_max_bytes, sampled_mean_bytes, samples,
--   discards, xoffs, xons.
-- Works in both log levels.
SELECT max(value) FILTER (WHERE metric = 'memory_peak_bytes') AS peak_bytes,
       max(value) FILTER (WHERE metric = 'memory_bytes') AS sampled_max_bytes,
       round(avg(value) FILTER (WHERE metric = 'memory_bytes'), 1) AS sampled_mean_bytes,
       count(*) FILTER (WHERE metric = 'memory_bytes') AS samples,
       max(value) FILTER (WHERE metric = 'discards') AS discards,
       max(value) FILTER (WHERE metric = 'xoffs') AS xoffs,
       max(value) FILTER (WHERE metric = 'xons') AS xons
FROM (SELECT metric, value FROM v_samples WHERE run_id = @run AND entity = 'switch'
      UNION ALL
      SELECT metric, value FROM v_run_totals WHERE run_id = @run AND entity = 'switch');
