-- Multicast packet cache hit rate per port.
--
-- Answers: in run @run, how often did a multicast copy find its payload in
-- the port's packet cache, how many entries were evicted before their
-- last copy left (premature evictions: a write into a full cache), and how
-- many dead entries the controller reclaimed in the background? The
-- counters are samples with metric 'cache_hits', 'cache_misses',
-- 'cache_premature_evictions' and 'cache_background_reclaims', entity
-- 'port<N>', cumulative since the start of the run; the last sample of each
-- port is its total.
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/cache_hit_rate.sql'
--
-- Columns: port ('port<N>'; the last row, 'all', sums the ports), hits,
--   misses, premature_evictions, background_reclaims, hit_rate (hits /
--   (hits + misses), NULL without look-ups).
-- Works in both log levels. No rows when the cache is off or the run sent
-- no multicast.
WITH
  last_sample AS (
    SELECT entity, metric, value,
           row_number() OVER (PARTITION BY entity, metric ORDER BY t_ps DESC, seq DESC) AS newest
    FROM v_samples
    WHERE run_id = @run
      AND metric IN ('cache_hits', 'cache_misses', 'cache_premature_evictions', 'cache_background_reclaims')
  ),
  per_port(port, hits, misses, premature, reclaims) AS (
    SELECT entity,
           sum(value) FILTER (WHERE metric = 'cache_hits'),
           sum(value) FILTER (WHERE metric = 'cache_misses'),
           sum(value) FILTER (WHERE metric = 'cache_premature_evictions'),
           sum(value) FILTER (WHERE metric = 'cache_background_reclaims')
    FROM last_sample
    WHERE newest = 1
    GROUP BY entity
  ),
  with_total(port, hits, misses, premature, reclaims, is_total) AS (
    SELECT port, coalesce(hits, 0), coalesce(misses, 0), coalesce(premature, 0), coalesce(reclaims, 0), 0
    FROM per_port
    UNION ALL
    SELECT 'all', coalesce(sum(hits), 0), coalesce(sum(misses), 0), coalesce(sum(premature), 0),
           coalesce(sum(reclaims), 0), 1
    FROM per_port HAVING count(*) > 0
  )
SELECT port,
       CAST(hits AS INTEGER) AS hits,
       CAST(misses AS INTEGER) AS misses,
       CAST(premature AS INTEGER) AS premature_evictions,
       CAST(reclaims AS INTEGER) AS background_reclaims,
       CASE WHEN hits + misses > 0 THEN hits / (hits + misses) END AS hit_rate
FROM with_total
ORDER BY is_total, CAST(substr(port, 5) AS INTEGER);
