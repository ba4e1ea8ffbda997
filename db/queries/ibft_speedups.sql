-- Speedups of the multicast schemes on the InfiniBand fat tree (E13).
--
-- Answers: for each case (sources, group size) and message size, the mean
-- completion time over the seeds of each scheme (cyclic, OpenSM with its
-- root rule first, OpenSM with ibft.opensm_root = spread, unicast) and the
-- speedups as time ratios, each the mean over the seeds of that seed's
-- ratio (a seed draws the same sources and groups for every scheme):
-- OpenSM over cyclic (above 1: cyclic is faster), unicast over cyclic and
-- unicast over OpenSM, for both root rules. Each figure has its sample
-- standard deviation over the seeds (_sd; 0 with one seed): a 95 %
-- interval is the mean +- t(0.975, seeds - 1) sd / sqrt(seeds), as
-- scripts/ibft-table prints it. Only the runs that delivered everything
-- count; a scheme with no run leaves its columns NULL.
--
-- Parameters: none.
--
-- Usage:
--   sqlite3 -header -column e13.db '.read db/queries/ibft_speedups.sql'
--
-- Columns: sources, group_size, message_bytes, cyclic_us, cyclic_us_sd,
--   opensm_us, opensm_us_sd, opensm_spread_us, opensm_spread_us_sd,
--   unicast_us, unicast_us_sd, opensm_over_cyclic, opensm_over_cyclic_sd,
--   opensm_spread_over_cyclic, opensm_spread_over_cyclic_sd,
--   unicast_over_cyclic, unicast_over_cyclic_sd, unicast_over_opensm,
--   unicast_over_opensm_sd, unicast_over_opensm_spread,
--   unicast_over_opensm_spread_sd, seeds (the most of any scheme in the row).
-- Works in both log levels.
WITH
  run AS (
    SELECT r.run_id, r.seed,
           CASE WHEN instr(r.config, 'ibft.opensm_root = spread') > 0 THEN 'opensm_spread'
                WHEN instr(r.config, 'ibft.scheme = opensm') > 0 THEN 'opensm'
                WHEN instr(r.config, 'ibft.scheme = unicast') > 0 THEN 'unicast'
                ELSE 'cyclic' END AS scheme,
           (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id) AS sources,
           (SELECT count(*) FROM flow_dests d WHERE d.run_id = r.run_id) /
               max(1, (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id)) AS group_size,
           (SELECT max(frame_bytes) FROM flows f WHERE f.run_id = r.run_id) AS message_bytes,
           (SELECT value FROM totals s WHERE s.run_id = r.run_id AND s.metric = 'completion_ps') AS completion_ps,
           (SELECT value FROM totals s WHERE s.run_id = r.run_id AND s.metric = 'deliveries') =
               (SELECT value FROM totals s WHERE s.run_id = r.run_id AND s.metric = 'expected_deliveries') AS whole
    FROM runs r
    WHERE instr(r.config, char(10) || 'platform = ibft' || char(10)) > 0
  ),
  -- Each scheme's completion (us) per case, size and seed.
  per_seed AS (
    SELECT sources, group_size, message_bytes, seed,
           avg(completion_ps) FILTER (WHERE scheme = 'cyclic') / 1e6 AS cyclic,
           avg(completion_ps) FILTER (WHERE scheme = 'opensm') / 1e6 AS opensm,
           avg(completion_ps) FILTER (WHERE scheme = 'opensm_spread') / 1e6 AS opensm_spread,
           avg(completion_ps) FILTER (WHERE scheme = 'unicast') / 1e6 AS unicast
    FROM run
    WHERE whole
    GROUP BY sources, group_size, message_bytes, seed
  ),
  -- Every figure of every seed, one per row (NULL where a scheme has no run).
  figure AS (
    SELECT sources, group_size, message_bytes, name,
           CASE name
             WHEN 'cyclic_us' THEN cyclic
             WHEN 'opensm_us' THEN opensm
             WHEN 'opensm_spread_us' THEN opensm_spread
             WHEN 'unicast_us' THEN unicast
             WHEN 'opensm_over_cyclic' THEN opensm / cyclic
             WHEN 'opensm_spread_over_cyclic' THEN opensm_spread / cyclic
             WHEN 'unicast_over_cyclic' THEN unicast / cyclic
             WHEN 'unicast_over_opensm' THEN unicast / opensm
             WHEN 'unicast_over_opensm_spread' THEN unicast / opensm_spread
           END AS value
    FROM per_seed
    CROSS JOIN (SELECT column1 AS name FROM (VALUES ('cyclic_us'), ('opensm_us'), ('opensm_spread_us'), ('unicast_us'),
                                                 ('opensm_over_cyclic'), ('opensm_spread_over_cyclic'), ('unicast_over_cyclic'),
                                                 ('unicast_over_opensm'), ('unicast_over_opensm_spread')))
  ),
  -- Mean and sample standard deviation of each figure over the seeds.
  stats AS (
    SELECT sources, group_size, message_bytes, name, avg(value) AS mean, count(value) AS seeds,
           sqrt(sum(deviation * deviation) / max(1, count(value) - 1)) AS sd
    FROM (SELECT *, value - avg(value) OVER (PARTITION BY sources, group_size, message_bytes, name) AS deviation
          FROM figure
          WHERE value IS NOT NULL)
    GROUP BY sources, group_size, message_bytes, name
  )
SELECT sources, group_size, message_bytes,
       round(max(mean) FILTER (WHERE name = 'cyclic_us'), 3) AS cyclic_us,
       round(max(sd) FILTER (WHERE name = 'cyclic_us'), 3) AS cyclic_us_sd,
       round(max(mean) FILTER (WHERE name = 'opensm_us'), 3) AS opensm_us,
       round(max(sd) FILTER (WHERE name = 'opensm_us'), 3) AS opensm_us_sd,
       round(max(mean) FILTER (WHERE name = 'opensm_spread_us'), 3) AS opensm_spread_us,
       round(max(sd) FILTER (WHERE name = 'opensm_spread_us'), 3) AS opensm_spread_us_sd,
       round(max(mean) FILTER (WHERE name = 'unicast_us'), 3) AS unicast_us,
       round(max(sd) FILTER (WHERE name = 'unicast_us'), 3) AS unicast_us_sd,
       round(max(mean) FILTER (WHERE name = 'opensm_over_cyclic'), 3) AS opensm_over_cyclic,
       round(max(sd) FILTER (WHERE name = 'opensm_over_cyclic'), 3) AS opensm_over_cyclic_sd,
       round(max(mean) FILTER (WHERE name = 'opensm_spread_over_cyclic'), 3) AS opensm_spread_over_cyclic,
       round(max(sd) FILTER (WHERE name = 'opensm_spread_over_cyclic'), 3) AS opensm_spread_over_cyclic_sd,
       round(max(mean) FILTER (WHERE name = 'unicast_over_cyclic'), 3) AS unicast_over_cyclic,
       round(max(sd) FILTER (WHERE name = 'unicast_over_cyclic'), 3) AS unicast_over_cyclic_sd,
       round(max(mean) FILTER (WHERE name = 'unicast_over_opensm'), 3) AS unicast_over_opensm,
       round(max(sd) FILTER (WHERE name = 'unicast_over_opensm'), 3) AS unicast_over_opensm_sd,
       round(max(mean) FILTER (WHERE name = 'unicast_over_opensm_spread'), 3) AS unicast_over_opensm_spread,
       round(max(sd) FILTER (WHERE name = 'unicast_over_opensm_spread'), 3) AS unicast_over_opensm_spread_sd,
       max(seeds) FILTER (WHERE name LIKE '%\_us' ESCAPE '\') AS seeds
FROM stats
GROUP BY sources, group_size, message_bytes
ORDER BY sources, group_size, message_bytes;
