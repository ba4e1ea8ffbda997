-- PAUSE frames per second per link (802.3x, backplane platform).
--
-- Answers: in run @run, how many PAUSE frames (XOFF and XON alike) reached
-- each station, how many per second of the run, and what share of its link
-- did they take? A PAUSE frame is 64 B plus 20 B of preamble and gap; the
-- share is of a link of @link_gbps (default 10, backplane.link_gbps). Events
-- kind 'pause' (XOFF) and 'go' (XON), entity of kind 'station' (station<N>); the switch's own
-- decisions are kind 'xoff' and 'xon', entity 'switch'.
--
-- Parameters:
--   @run       run_id
--   @link_gbps the links' rate (optional; 10)
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/pause_rate.sql'
--
-- Columns: link (the station it reaches), xoff, xon, pause_frames,
--   per_second, link_share.
-- Works in both log levels. No rows when no PAUSE was sent.
WITH run_end(seconds) AS (SELECT sim_time_ps / 1e12 FROM runs WHERE run_id = @run)
SELECT entity AS link,
       count(*) FILTER (WHERE kind = 'pause') AS xoff,
       count(*) FILTER (WHERE kind = 'go') AS xon,
       count(*) AS pause_frames,
       round(count(*) / (SELECT seconds FROM run_end), 1) AS per_second,
       round(count(*) * 84 * 8 / (coalesce(@link_gbps, 10) * 1e9 * (SELECT seconds FROM run_end)), 6) AS link_share
FROM v_events
WHERE run_id = @run AND kind IN ('pause', 'go') AND entity_kind = 'station'
GROUP BY entity
ORDER BY entity;
