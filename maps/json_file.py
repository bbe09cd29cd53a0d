"""Reading a JSON document from disk safely: bounded, finite, shallow, UTF-8.

Every file the toolkit reads (map, scenario of every rule system, errata, terrain chart, counters,
placement, replay) comes through here, so that no input can crash, hang or exhaust the reader:

- only a **regular file** is read (a FIFO would block forever, ``/dev/zero`` would never end): the
  path is ``os.stat``-ed before it is opened;
- a file larger than its kind's **size limit** (:data:`SIZE_LIMITS`, bytes) is refused before it is
  read, and at most ``limit + 1`` bytes are ever read (a file that grows while being read is still
  caught);
- the bytes must be **UTF-8** text (the byte offset of the first bad byte is named);
- numbers must be finite: ``NaN``, ``Infinity``, ``-Infinity`` and float literals that overflow
  (``1e400``) are refused, as are integer literals of more than :data:`MAX_INT_DIGITS` digits (Python
  refuses to convert past 4,300 digits, and no number of ours needs more than a few);
- nesting deeper than :data:`MAX_DEPTH` arrays/objects is refused (the deepest shipped document nests
  about ten levels; deeper input would only feed recursion in the parser and in the region and victory
  languages).

Problems are raised as :class:`JsonFileProblem` (``where`` a JSON path like ``$.hexes[3].level``,
``message`` in our words); :mod:`maps.document_file` turns them into its one-line ``FILE: PATH:
problem`` errors. This module imports nothing of ours.
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any

__all__ = ["JsonFileProblem", "SIZE_LIMITS", "DEFAULT_LIMIT", "MAX_DEPTH", "MAX_INT_DIGITS",
           "read_text_file", "parse_json", "read_json_file", "limit_for", "json_tuple"]

MiB = 1024 * 1024

#: Largest file read, in bytes, per document ``format`` name. The shipped files are at most 70 KB
#: (map sheets) and the longest replays a few MB; the limits leave room for a designer's far larger
#: map or a long game while keeping a mistaken path (a disk image, a video) from filling memory.
SIZE_LIMITS: dict[str, int] = {
    "ironcross-map": 16 * MiB,
    "ironcross-scenario": 4 * MiB,
    "redflags-scenario": 4 * MiB,
    "twentymm-scenario": 4 * MiB,
    "ironcross-errata": 4 * MiB,
    "ironcross-terrain-chart": 4 * MiB,
    "ironcross-counters": 8 * MiB,
    "redflags-roster": 4 * MiB,
    "ironcross-placement": 4 * MiB,
    "ironcross-replay": 256 * MiB,
    # a robust run's kept check games: about 50 bytes a game
    "ironcross robust check games 1": 64 * MiB,
}
#: The limit for a file whose kind is not known before it is read (the largest kind's but replays':
#: ``validate`` and the scenario loaders read first and learn the kind from the ``format`` key).
DEFAULT_LIMIT = 16 * MiB
#: Deepest nesting of arrays and objects accepted.
MAX_DEPTH = 64
#: Longest integer literal accepted, in digits (an int64 has 19).
MAX_INT_DIGITS = 30


class JsonFileProblem(ValueError):
    """A file could not be read as JSON: ``where`` is ``"$"`` (the whole file), a JSON path
    (``$.groups[0].oob[2].count``) or, for JSON lines, ``line N`` + path; ``message`` says what is
    wrong in the user's words."""

    def __init__(self, where: str, message: str):
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


def limit_for(format_name: str | None) -> int:
    """The size limit in bytes for documents of ``format_name`` (:data:`DEFAULT_LIMIT` if unknown)."""
    return SIZE_LIMITS.get(format_name or "", DEFAULT_LIMIT)


def _size_words(n: int) -> str:
    return f"{n / MiB:g} MB" if n >= MiB else f"{n} bytes"


def read_text_file(path: str | os.PathLike[str], *, limit: int = DEFAULT_LIMIT) -> str:
    """The text of ``path``: a regular file of at most ``limit`` bytes, decoded as UTF-8.

    Raises :class:`FileNotFoundError` for a missing file (callers word it themselves) and
    :class:`JsonFileProblem` (``where="$"``) for a special file (FIFO, device, directory), a file over
    the limit, an unreadable file or bytes that are not UTF-8."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise JsonFileProblem("$", f"cannot read file: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        what = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise JsonFileProblem("$", f"is {what}; only regular files are read")
    if st.st_size > limit:
        raise JsonFileProblem("$", f"file is {_size_words(st.st_size)}; the limit for this kind of file is "
                                   f"{_size_words(limit)}")
    try:
        # O_NONBLOCK: should the path have been swapped for a FIFO since the stat, open does not block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise JsonFileProblem("$", "is not a regular file; only regular files are read")
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise JsonFileProblem("$", f"cannot read file: {e.strerror or e}") from None
    if len(data) > limit:
        raise JsonFileProblem("$", f"file is larger than the limit for this kind of file ({_size_words(limit)})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonFileProblem("$", f"not UTF-8 text (byte {e.start}: 0x{data[e.start]:02x}); "
                                   "save the file as UTF-8") from None


class _Bad:
    """A value the parser could not accept; reported with its JSON path after parsing."""

    __slots__ = ("message",)

    def __init__(self, message: str):
        self.message = message


def _parse_int(s: str):
    digits = len(s.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Bad(f"integer literal of {digits} digits; at most {MAX_INT_DIGITS} are read")
    return int(s)


def _parse_float(s: str):
    v = float(s)
    if not math.isfinite(v):
        return _Bad(f"number {s[:20]}{'...' if len(s) > 20 else ''} is out of range of a finite number")
    return v


def _parse_constant(s: str):
    return _Bad(f"{s} is not a number this toolkit accepts (numbers must be finite)")


def _check(value: Any, where: str) -> None:
    """Walk the parsed value without recursion: refuse too-deep nesting and the parser's :class:`_Bad`
    markers, naming the JSON path of the first one."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        v, p, depth = stack.pop()
        if isinstance(v, _Bad):
            raise JsonFileProblem(p, v.message)
        if isinstance(v, (dict, list)):
            if depth >= MAX_DEPTH:
                raise JsonFileProblem(p, f"nested deeper than {MAX_DEPTH} levels of arrays and objects")
            items = v.items() if isinstance(v, dict) else enumerate(v)
            children = [(c, f"{p}.{k}" if isinstance(k, str) else f"{p}[{k}]", depth + 1) for k, c in items]
            stack.extend(reversed(children))


def parse_json(text: str, *, where: str = "$") -> Any:
    """Parse JSON ``text`` safely (finite numbers, short integers, bounded nesting).

    ``where`` prefixes every path in a problem (``"line 3"`` for a JSON-lines file: paths read
    ``line 3.seed``). Raises :class:`JsonFileProblem`."""
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as e:
        raise JsonFileProblem(where, f"not valid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise JsonFileProblem(where, f"nested deeper than {MAX_DEPTH} levels of arrays and objects") from None
    _check(value, where)
    return value


def read_json_file(path: str | os.PathLike[str], *, limit: int = DEFAULT_LIMIT) -> Any:
    """Read and parse one JSON file (:func:`read_text_file` then :func:`parse_json`).

    Raises :class:`FileNotFoundError` or :class:`JsonFileProblem`."""
    return parse_json(read_text_file(path, limit=limit))


def _array_as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def json_tuple(tp: Any) -> Any:
    """``tp`` (a ``tuple[...]`` type) read from a JSON array under strict validation.

    The file models validate strictly (``"1"`` is not an integer, ``true`` is not a count), and strict
    pydantic wants a Python tuple where JSON can only give an array: this turns the array into a tuple
    first, so the items are still checked strictly."""
    from typing import Annotated

    from pydantic import BeforeValidator

    return Annotated[tp, BeforeValidator(_array_as_tuple)]
