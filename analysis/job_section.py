"""fabric-report's "Jobs" section of a run with closed-loop jobs
(docs/jobs.md): each job's time, algbw, busbw, slowest step and slowest
rank as db/queries/job_figures.sql gives them, and a figure of every step's
duration (v_job_steps), a line per job. A run without jobs has no section."""
from analysis import plots
from analysis.cookbook import run_query
from analysis.job_table import has_jobs_table
from fabricpy.markdown import image, number, table

HEADER = ["job", "collective", "algorithm", "ranks", "bytes", "operations (completed of all)", "time (us)",
          "algbw (Gb/s)", "busbw (Gb/s)", "slowest step", "its duration (us)", "slowest rank", "its end (us)"]


def _row(job):
    finished = job["time_us"] is not None
    done = f"{job['completed_operations']} of {job['operations']}"
    return [job["name"], job["collective"], job["algorithm"], job["ranks"], number(job["bytes"], 0),
            done,
            number(job["time_us"], 3) if finished else "did not finish",
            number(job["algbw_gbps"], 3), number(job["busbw_gbps"], 3),
            job["slowest_step"] if finished else f"{job['slowest_step']} (first not completed)",
            number(job["slowest_step_us"], 3),
            job["slowest_rank"] if finished else f"{job['slowest_rank']} (first not completed)",
            number(job["slowest_rank_us"], 3)]


def jobs_section(conn, run, png, png_name):
    """The section's Markdown, or None for a run without jobs. png(plot):
    the path of a figure about to be drawn; png_name(plot): its file name."""
    if not has_jobs_table(conn):
        return None
    columns, rows = run_query(conn, "job_figures", run=run.run_id)
    if not rows:
        return None
    jobs = [dict(zip(columns, row)) for row in rows]
    names = {j["job_id"]: j["name"] for j in jobs}
    steps = {}
    for job_id, step, duration_ps in conn.execute(
            "SELECT job_id, step, duration_ps FROM v_job_steps WHERE run_id = ? ORDER BY job_id, step", (run.run_id,)):
        if duration_ps is not None:
            steps.setdefault(job_id, ([], []))
            steps[job_id][0].append(step)
            steps[job_id][1].append(duration_ps / 1e6)
    text = ("### Jobs\n\nEach closed-loop job as `db/queries/job_figures.sql`: time from its start to its last "
            "operation's end, NCCL-tests' algbw and busbw, the step that took longest (`v_job_steps`: first "
            "send or calc to last end) and the rank that finished last.\n\n" + table(HEADER, [_row(j) for j in jobs]))
    if not steps:
        return text + "\nNo step of any job completed (no figure).\n"
    label = {j["job_id"]: f"{j['name']}: {j['collective']} {j['algorithm']}, {j['ranks']} ranks" for j in jobs}
    lines = [(label[job_id], *points) for job_id, points in steps.items()]
    plots.job_steps_plot(run, lines, png("job_steps"))
    unfinished = [names[j["job_id"]] for j in jobs if j["time_us"] is None]
    if unfinished:
        text += f"\nThe figure leaves out the steps that did not complete (of {', '.join(unfinished)}).\n"
    return text + "\n" + image(png_name("job_steps"), "duration of each step of the jobs")
