-- Closed-loop jobs: time, bandwidth, slowest step and slowest rank.
--
-- Answers: in run @run, for each closed-loop job (its collective, algorithm,
-- ranks and size), how long did it take, what algbw and busbw did it reach
-- (NCCL-tests' figures), which step took longest (v_job_steps: from its
-- first send or calc to its last end; steps of a pipelined algorithm
-- overlap) and which rank finished last, how long after the job's start?
-- For a job that did not finish, time and bandwidths are NULL and the
-- slowest step and rank are the first step and the first rank that did
-- not complete (their times NULL).
--
-- Parameters:
--   @run  run_id
--
-- Usage:
--   sqlite3 -header -column fabric.db -cmd '.parameter set @run 1' \
--     '.read db/queries/job_figures.sql'
--
-- Columns: job_id, name, collective, algorithm, ranks, bytes (NULL for
--   goal), operations, completed_operations, time_us, algbw_gbps,
--   busbw_gbps, slowest_step, slowest_step_us, slowest_rank,
--   slowest_rank_us (its last end after the job's start).
-- Works in both log levels.
WITH steps AS (
  SELECT job_id, step, duration_ps,
         row_number() OVER (PARTITION BY job_id ORDER BY duration_ps DESC NULLS FIRST, step) AS k
  FROM v_job_steps
  WHERE run_id = @run
), ranks AS (
  SELECT r.job_id, r.rank, r.end_ps - j.start_ps AS time_ps,
         row_number() OVER (PARTITION BY r.job_id ORDER BY r.end_ps DESC NULLS FIRST, r.rank) AS k
  FROM job_ranks AS r
  JOIN jobs AS j ON j.run_id = r.run_id AND j.job_id = r.job_id
  WHERE r.run_id = @run
)
SELECT j.job_id, j.name, j.collective, j.algorithm, j.ranks, j.bytes,
       j.operations, j.completed_operations,
       round(j.time_ps / 1e6, 3) AS time_us,
       round(j.algbw_gbps, 3) AS algbw_gbps,
       round(j.busbw_gbps, 3) AS busbw_gbps,
       s.step AS slowest_step,
       round(s.duration_ps / 1e6, 3) AS slowest_step_us,
       r.rank AS slowest_rank,
       round(r.time_ps / 1e6, 3) AS slowest_rank_us
FROM jobs AS j
LEFT JOIN steps AS s ON s.job_id = j.job_id AND s.k = 1
LEFT JOIN ranks AS r ON r.job_id = j.job_id AND r.k = 1
WHERE j.run_id = @run
ORDER BY j.job_id;
