-- Completion time of each run of the InfiniBand fat tree (platform ibft, E13).
--
-- Answers: for every ibft run in the file, with its scheme, its number of
-- sources, its group size (receivers per source), its message size and its
-- seed: when did the last packet's last byte reach its destination? The run
-- writes it as the total 'completion_ps' (entity 'ibft'), in both log levels.
-- OpenSM's runs with ibft.opensm_root = spread (the roots spread over the
-- tied switches) are the scheme 'opensm_spread'; 'opensm' is the default
-- root rule, first.
--
-- Parameters: none.
--
-- Usage:
--   sqlite3 -header -column e13.db '.read db/queries/ibft_completion.sql'
--
-- Columns: run_id, scheme, sources, group_size, message_bytes, seed,
--   completion_us, deliveries, expected_deliveries.
-- Works in both log levels.
SELECT r.run_id,
       CASE WHEN instr(r.config, 'ibft.opensm_root = spread') > 0 THEN 'opensm_spread'
            WHEN instr(r.config, 'ibft.scheme = opensm') > 0 THEN 'opensm'
            WHEN instr(r.config, 'ibft.scheme = unicast') > 0 THEN 'unicast'
            ELSE 'cyclic' END AS scheme,
       (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id) AS sources,
       (SELECT count(*) FROM flow_dests d WHERE d.run_id = r.run_id) /
           max(1, (SELECT count(*) FROM flows f WHERE f.run_id = r.run_id)) AS group_size,
       (SELECT max(frame_bytes) FROM flows f WHERE f.run_id = r.run_id) AS message_bytes,
       r.seed,
       round((SELECT value FROM totals s WHERE s.run_id = r.run_id AND s.metric = 'completion_ps') / 1e6, 3)
           AS completion_us,
       CAST((SELECT value FROM totals s WHERE s.run_id = r.run_id AND s.metric = 'deliveries') AS INTEGER)
           AS deliveries,
       CAST((SELECT value FROM totals s WHERE s.run_id = r.run_id AND s.metric = 'expected_deliveries') AS INTEGER)
           AS expected_deliveries
FROM runs r
WHERE instr(r.config, char(10) || 'platform = ibft' || char(10)) > 0
ORDER BY r.run_id;
