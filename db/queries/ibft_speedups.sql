-- Speedups of the multicast schemes on the InfiniBand fat tree (E13).
--
-- Answers: for each case (sources, group size) and message size, the mean
-- completion time over the seeds of each scheme (cyclic, OpenSM, unicast),
-- and the speedups as time ratios: OpenSM over cyclic (above 1: cyclic is
-- faster), unicast over cyclic and unicast over OpenSM. Only the runs that
-- delivered everything count.
--
-- Parameters: none.
--
-- Usage:
--   sqlite3 -header -column e13.db '.read db/queries/ibft_speedups.sql'
--
-- Columns: sources, group_size, message_bytes, cyclic_us, opensm_us,
--   unicast_us, opensm_over_cyclic, unicast_over_cyclic,
--   unicast_over_opensm, seeds.
-- Works in both log levels.
WITH
  run AS (
    SELECT r.run_id,
           CASE WHEN instr(r.config, 'ibft.scheme = opensm') > 0 THEN 'opensm'
                WHEN instr(r.config, 'ibft.scheme = unicast') > 0 THEN 'unicast'
                ELSE 'cyclic' END AS scheme,
           (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id) AS sources,
           (SELECT count(*) FROM flow_dests d WHERE d.run_id = r.run_id) /
               max(1, (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id)) AS group_size,
           (SELECT max(frame_bytes) FROM flows f WHERE f.run_id = r.run_id) AS message_bytes,
           (SELECT value FROM samples s WHERE s.run_id = r.run_id AND s.metric = 'completion_ps') AS completion_ps,
           (SELECT value FROM samples s WHERE s.run_id = r.run_id AND s.metric = 'deliveries') =
               (SELECT value FROM samples s WHERE s.run_id = r.run_id AND s.metric = 'expected_deliveries') AS whole
    FROM runs r
    WHERE instr(r.config, char(10) || 'platform = ibft' || char(10)) > 0
  ),
  mean AS (
    SELECT sources, group_size, message_bytes,
           avg(completion_ps) FILTER (WHERE scheme = 'cyclic') AS cyclic,
           avg(completion_ps) FILTER (WHERE scheme = 'opensm') AS opensm,
           avg(completion_ps) FILTER (WHERE scheme = 'unicast') AS unicast,
           max(count_seeds) AS seeds
    FROM (SELECT *, count(*) OVER (PARTITION BY sources, group_size, message_bytes, scheme) AS count_seeds FROM run
          WHERE whole)
    GROUP BY sources, group_size, message_bytes
  )
SELECT sources, group_size, message_bytes,
       round(cyclic / 1e6, 3) AS cyclic_us,
       round(opensm / 1e6, 3) AS opensm_us,
       round(unicast / 1e6, 3) AS unicast_us,
       round(opensm / cyclic, 3) AS opensm_over_cyclic,
       round(unicast / cyclic, 3) AS unicast_over_cyclic,
       round(unicast / opensm, 3) AS unicast_over_opensm,
       seeds
FROM mean
ORDER BY sources, group_size, message_bytes;
