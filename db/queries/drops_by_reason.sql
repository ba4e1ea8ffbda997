-- Drops by reason.
--
-- Answers: in run @run, how many frames and copies were dropped, for each
-- reason (payload, header_pool, header_red, header_memory, voq_tail,
-- voq_head, link, other; shared_memory on the backplane platform), and when did the first and last such drop happen?
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/drops_by_reason.sql'
--
-- Columns: reason, drops (all rows), whole_frames (dst_port NULL),
--   copies (one destination's copy), first_ps, last_ps.
-- Works in both log levels.
SELECT reason,
       count(*) AS drops,
       count(*) FILTER (WHERE dst_port IS NULL) AS whole_frames,
       count(*) FILTER (WHERE dst_port IS NOT NULL) AS copies,
       min(t_ps) AS first_ps,
       max(t_ps) AS last_ps
FROM drops
WHERE run_id = @run
GROUP BY reason
ORDER BY drops DESC, reason;
