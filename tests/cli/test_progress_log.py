"""A long run whose output is no terminal (nohup, a batch queue, a log file) prints a plain progress
line a task every interval of work, and nothing more when it is short; on a terminal the bars alone."""

from __future__ import annotations

import io

from rich.console import Console

from cli.progress_log import LoggedProgress, progress_line, time_left


def _progress(terminal: bool, now: list[float], **kw) -> tuple[LoggedProgress, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=200)
    return LoggedProgress(console=console, get_time=lambda: now[0], log_interval=60.0, **kw), out


def test_a_file_output_gets_a_line_a_minute_and_one_when_the_task_completes():
    now = [0.0]
    progress, out = _progress(False, now)
    task = progress.add_task("3/5 russian tuned games", total=1000, kept=0)
    progress.update(task, advance=400, kept=400)  # kept by an earlier run: done, not pace
    now[0] = 30.0
    progress.advance(task, 10)
    assert out.getvalue() == ""  # less than a minute since the task began
    now[0] = 61.0
    progress.advance(task, 10)
    # 20 played in 61 s: 580 left at 3.05 s a game
    assert out.getvalue() == "3/5 russian tuned games: 420/1000 (42 %), 0:01:01 elapsed, about 0:29:29 left\n"
    now[0] = 100.0
    progress.advance(task, 10)
    assert out.getvalue().count("\n") == 1  # the next line a minute after the last
    now[0] = 121.0
    progress.advance(task, 10)
    assert out.getvalue().count("\n") == 2
    now[0] = 130.0
    progress.update(task, completed=1000)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and lines[-1] == "3/5 russian tuned games: 1000/1000 (100 %), 0:02:10 elapsed"
    now[0] = 500.0
    progress.update(task, completed=1000)
    assert len(out.getvalue().splitlines()) == 3  # a completed task says it once


def test_a_short_run_prints_nothing_more_and_a_terminal_gets_the_bars_alone():
    now = [0.0]
    progress, out = _progress(False, now)
    task = progress.add_task("games", total=10)
    for _ in range(10):
        now[0] += 5.0
        progress.advance(task, 1)
    assert out.getvalue() == ""  # 50 s: the task ended before its first line was due
    for terminal, quiet in ((True, False), (False, True)):
        now = [0.0]
        progress, out = _progress(terminal, now, disable=quiet)
        task = progress.add_task("tuning german (trials)", total=30)
        now[0] = 3600.0
        progress.update(task, completed=29)
        assert progress_line(progress.tasks[0]) not in out.getvalue()  # rich's bar (or nothing), no log line


def test_the_line_of_a_task_without_a_total_or_played_work_has_no_time_left():
    now = [0.0]
    progress, out = _progress(False, now)
    task = progress.add_task("tuning german (trials)", total=30, completed=20, kept=20)
    now[0] = 70.0
    progress.update(task, completed=20)
    assert out.getvalue() == "tuning german (trials): 20/30 (67 %), 0:01:10 elapsed\n"
    open_ended = progress.add_task("games", total=None)
    now[0] = 140.0
    progress.advance(open_ended, 7)
    assert out.getvalue().splitlines()[-1] == "games: 7, 0:01:10 elapsed"


def test_a_stage_complete_by_kept_work_alone_has_no_time_left_not_an_unknown_one():
    """A resumed run's stage that took all its games or trials from the kept files, or a side at
    its defaults that reuses the default games, played nothing: done, 0:00:00 left (its ETA
    column showed -:--:-- as for a stage not yet begun)."""
    now = [0.0]
    progress, _out = _progress(False, now)
    task = progress.add_task("2/5 tuning german (trials)", total=30, kept=0)
    assert time_left(progress.tasks[0]) is None  # nothing played yet: unknown
    progress.update(task, advance=30, kept=30)
    now[0] = 5.0
    assert time_left(progress.tasks[0]) == 0.0
    assert progress_line(progress.tasks[0]) == "2/5 tuning german (trials): 30/30 (100 %), 0:00:05 elapsed"
