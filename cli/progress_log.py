"""Progress of the long runs (playtest batches, tuning, robust runs, balance sheets) when the output
is no terminal: a run started with ``nohup``, on a cluster's batch queue or with its output sent to a
file shows rich's bars only when it ends, so hours of a robust run would say nothing. A
:class:`LoggedProgress` is a rich ``Progress`` that, on such an output, also prints a plain line per
task every ``interval`` seconds of work (its count, share, time elapsed and time left), and one more
when a task that printed one completes. On a terminal it is rich's own bar, line for line; a run
shorter than the interval prints nothing more."""

from __future__ import annotations

from rich.progress import Progress, TaskID

__all__ = ["LoggedProgress", "progress_line", "time_left", "clock", "LOG_INTERVAL"]

#: seconds between two lines of one task on an output that is no terminal
LOG_INTERVAL = 60.0


def clock(seconds: float) -> str:
    """``"1:02:03"``: whole hours, minutes and seconds."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}"


def time_left(task) -> float | None:
    """Seconds left of a rich task at the pace of the work it played since it started (its
    ``completed`` less its field ``kept``, the count an earlier run kept, over its elapsed time);
    0.0 once it is complete (played or kept); None until it has played some or when its total is
    unknown."""
    if task.total is not None and task.completed >= task.total:
        return 0.0
    played = task.completed - task.fields.get("kept", 0)
    elapsed = task.elapsed
    if task.total is None or played <= 0 or not elapsed:
        return None
    return max(0.0, task.total - task.completed) * elapsed / played


def progress_line(task) -> str:
    """``"tuning german (trials): 21/30 (70 %), 0:45:10 elapsed, about 0:19:21 left"`` for a rich
    task, the time left by :func:`time_left` (as the bars' ETA column), none when it has none or
    the task is done."""
    done = task.completed
    total = task.total
    what = str(task.description) or "progress"
    count = f"{done:g}/{total:g} ({100.0 * done / total:.0f} %)" if total else f"{done:g}"
    line = f"{what}: {count}, {clock(task.elapsed or 0.0)} elapsed"
    left = time_left(task)
    if left is not None and total and done < total:
        line += f", about {clock(left)} left"
    return line


class LoggedProgress(Progress):
    """rich's ``Progress`` plus, on a console that is no terminal and unless ``disable``, a plain
    :func:`progress_line` per task at most every ``log_interval`` seconds (``LOG_INTERVAL``) of the
    progress clock (``get_time``, so a test can drive it), and a last one when a task that logged
    completes. Lines go to the progress console (standard output), plain text (no markup)."""

    def __init__(self, *columns, log_interval: float = LOG_INTERVAL, **kwargs) -> None:
        super().__init__(*columns, **kwargs)
        self.log_interval = float(log_interval)
        self._plain = not self.disable and not self.console.is_terminal
        self._last: dict[TaskID, float] = {}  # task -> progress-clock time of its last line (or its start)
        self._printed: set[TaskID] = set()    # tasks that printed a line
        self._closed: set[TaskID] = set()     # tasks whose last line is out

    def add_task(self, *args, **kwargs) -> TaskID:  # noqa: D102 (rich's)
        task_id = super().add_task(*args, **kwargs)
        self._last[task_id] = self.get_time()  # the interval counts from the task's start
        return task_id

    def update(self, task_id: TaskID, **kwargs) -> None:  # noqa: D102 (rich's)
        super().update(task_id, **kwargs)
        self._maybe_log(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:  # noqa: D102 (rich's)
        super().advance(task_id, advance)
        self._maybe_log(task_id)

    def _maybe_log(self, task_id: TaskID) -> None:
        if not self._plain or task_id in self._closed:
            return
        task = next((t for t in self.tasks if t.id == task_id), None)
        if task is None:
            return
        now = self.get_time()
        if task.total is not None and task.completed >= task.total:
            if task_id in self._printed:  # a short task that never logged stays silent
                self._print(task)
            self._closed.add(task_id)
        elif now - self._last[task_id] >= self.log_interval:
            self._print(task)
            self._last[task_id] = now
            self._printed.add(task_id)

    def _print(self, task) -> None:
        self.console.print(progress_line(task), markup=False, highlight=False, soft_wrap=True)
