-- PAUSE time per port and priority.
--
-- Answers: in run @run, how often did each port send PAUSE (STOP) for each
-- priority, and for how long in total was that priority stopped? A STOP
-- lasts until the next GO for the same port and priority, or to the end of
-- the run when none came. The events are kind 'pause' (STOP) and 'go',
-- entity 'port<N>' (the port that sent them), value = the priority.
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/pause_time.sql'
--
-- Columns: port, priority, pauses (STOPs sent), paused_us (total time
--   stopped), paused_fraction (of the simulated time), first_pause_ps,
--   longest_us.
-- Works in both log levels. No rows when nothing was paused.
WITH
  run_end(t) AS (SELECT sim_time_ps FROM runs WHERE run_id = @run),
  ordered AS (
    SELECT entity,
           CAST(value AS INTEGER) AS priority,
           kind,
           t_ps,
           lead(t_ps) OVER (PARTITION BY entity, CAST(value AS INTEGER) ORDER BY t_ps, seq) AS next_ps
    FROM v_events
    WHERE run_id = @run AND kind IN ('pause', 'go')
  ),
  stops(entity, priority, t_ps, length_ps) AS (
    SELECT entity, priority, t_ps, coalesce(next_ps, (SELECT t FROM run_end)) - t_ps
    FROM ordered
    WHERE kind = 'pause'
  )
SELECT entity AS port,
       priority,
       count(*) AS pauses,
       sum(length_ps) / 1e6 AS paused_us,
       sum(length_ps) * 1.0 / (SELECT t FROM run_end) AS paused_fraction,
       min(t_ps) AS first_pause_ps,
       max(length_ps) / 1e6 AS longest_us
FROM stops
GROUP BY entity, priority
ORDER BY sum(length_ps) DESC, entity, priority;
