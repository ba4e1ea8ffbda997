-- Congestion notification messages (QCN CNMs) per flow.
--
-- Answers: in run @run, how many CNMs did each flow's source receive, when
-- were the first and the last, and how strong was the feedback? Events of
-- kind 'cnm': flow_id = the flow the congestion point sampled (the
-- culprit), entity = the congestion point (e.g. 'port12.in', 'port3.out'),
-- value = the quantized feedback |Fb| (0..63).
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/cnms_per_flow.sql'
--
-- Columns: flow_id, flow_name, cnms, congestion_points (distinct entities),
--   first_ps, last_ps, mean_fb, max_fb, cnms_per_ms.
-- Works in both log levels. No rows when no CNM was sent (QCN off or no
-- congestion).
SELECT e.flow_id,
       fl.name AS flow_name,
       count(*) AS cnms,
       count(DISTINCT e.entity_id) AS congestion_points,
       min(e.t_ps) AS first_ps,
       max(e.t_ps) AS last_ps,
       avg(e.value) AS mean_fb,
       max(e.value) AS max_fb,
       count(*) * 1e9 / (SELECT sim_time_ps FROM runs WHERE run_id = @run) AS cnms_per_ms
FROM events AS e
LEFT JOIN flows AS fl ON fl.run_id = e.run_id AND fl.flow_id = e.flow_id
WHERE e.run_id = @run AND e.kind = 'cnm'
GROUP BY e.flow_id
ORDER BY count(*) DESC, e.flow_id;
