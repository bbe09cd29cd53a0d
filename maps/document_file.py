"""Reading and writing the toolkit's JSON documents: clear errors and atomic saves.

Every document (map, errata, terrain chart, counters, scenario, replay header) is JSON with a
``format`` name and an integer ``version``. Loading reports every problem as one line naming the
file, the JSON path (``$.hexes[3].trees``) and the problem; it never lets a traceback reach the
user. Saving writes a temporary file in the same folder and renames it over the target, so a
crash mid-save never leaves a half-written file.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from pydantic import BaseModel, ValidationError

from maps.json_file import DEFAULT_LIMIT, JsonFileProblem, limit_for, parse_json, read_json_file, read_text_file

__all__ = ["Problem", "DocumentError", "json_path", "read_json_text", "read_json", "load_document", "atomic_write_text", "save_document"]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Problem:
    """One problem in a document: ``path`` is a JSON path like ``$.hexes[3].trees``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class DocumentError(ValueError):
    """A document could not be read or is invalid; ``problems`` lists every problem found.

    ``str(err)`` is one line per problem: ``FILE: $.path: message``.
    """

    def __init__(self, file: str | os.PathLike[str], problems: Iterable[Problem]):
        self.file = str(file)
        self.problems = list(problems)
        super().__init__("\n".join(f"{self.file}: {p}" for p in self.problems))


def json_path(loc: Iterable[Any]) -> str:
    """Render a location tuple (``("hexes", 3, "trees")``) as a JSON path (``$.hexes[3].trees``)."""
    out = "$"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}"
    return out


def read_json_text(path: str | os.PathLike[str], *, limit: int = DEFAULT_LIMIT) -> tuple[str, Any]:
    """The text and the JSON value of ``path`` through the safe reader (a regular file of at most
    ``limit`` bytes, UTF-8, finite numbers, bounded nesting), for a caller that also needs the text
    (to hash it, say); raises :class:`DocumentError` as :func:`read_json` does."""
    p = Path(path)
    try:
        text = read_text_file(p, limit=limit)
        return text, parse_json(text)
    except FileNotFoundError:
        raise DocumentError(p, [Problem("$", "file not found")]) from None
    except JsonFileProblem as e:
        raise DocumentError(p, [Problem(e.where, e.message)]) from None


def read_json(path: str | os.PathLike[str], *, limit: int = DEFAULT_LIMIT) -> Any:
    """Read a JSON file through the safe reader :func:`maps.json_file.read_json_file` (a regular file of
    at most ``limit`` bytes, UTF-8, finite numbers, bounded nesting); raises :class:`DocumentError` for a
    missing, special, oversized, unreadable or malformed file, naming the JSON path where it can."""
    p = Path(path)
    try:
        return read_json_file(p, limit=limit)
    except FileNotFoundError:
        raise DocumentError(p, [Problem("$", "file not found")]) from None
    except JsonFileProblem as e:
        raise DocumentError(p, [Problem(e.where, e.message)]) from None


def _document_loc(loc: tuple, data: Any) -> tuple:
    """``loc`` as a path in the document ``data``: pydantic puts the tag of a tagged union (a
    region's ``"kind"``, ``path``, ``hexes``, ``all_of``...) into the location; where the document
    has no such key at that place but names it as its ``kind``, the tag is left out, so the path
    is the one a designer finds in the file (``through[1]``, not ``path.through[1]``; ``hexes[1]``, not
    ``hexes.hexes[1]``)."""
    out = []
    node = data
    for i, x in enumerate(loc):
        if isinstance(x, str) and isinstance(node, dict) and node.get("kind") == x and \
                (x not in node or loc[i + 1:i + 2] == (x,)):  # the tag, not the key (``hexes.hexes``)
            continue
        out.append(x)
        if isinstance(node, dict) and isinstance(x, str):
            node = node.get(x)
        elif isinstance(node, list) and isinstance(x, int) and 0 <= x < len(node):
            node = node[x]
        else:
            node = None
    return tuple(out)


def _validation_problems(err: ValidationError, data: Any = None) -> list[Problem]:
    """One :class:`Problem` per pydantic error, at its path in the document ``data`` (when given,
    union tags that are not keys are left out: :func:`_document_loc`)."""
    out = []
    for e in err.errors(include_url=False):
        loc = tuple(x for x in e.get("loc", ()) if not (isinstance(x, str) and x.startswith("function-")))
        if data is not None:
            loc = _document_loc(loc, data)
        msg = e.get("msg", "invalid")
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        out.append(Problem(json_path(loc), msg))
    return out


def load_document(
    path: str | os.PathLike[str],
    model: type[M],
    *,
    format_name: str,
    version: int,
    data: Any = None,
    checks: Callable[[M], list[Problem]] | None = None,
) -> M:
    """Load and validate one document.

    Reads ``path`` (unless ``data`` is given) through the safe reader with the size limit of
    ``format_name`` (:data:`maps.json_file.SIZE_LIMITS`), checks ``format`` and ``version`` (a newer version
    than ``version`` is refused with a message to upgrade), validates against ``model`` and runs
    ``checks`` (whole-document semantic checks). Raises :class:`DocumentError` listing problems.
    """
    if data is None:
        data = read_json(path, limit=limit_for(format_name))
    if not isinstance(data, dict):
        raise DocumentError(path, [Problem("$", f"expected a JSON object, got {type(data).__name__}")])
    fmt = data.get("format")
    if fmt != format_name:
        raise DocumentError(path, [Problem("$.format", f"unknown format {fmt!r}; expected {format_name!r}")])
    ver = data.get("version")
    if not isinstance(ver, int) or isinstance(ver, bool):
        raise DocumentError(path, [Problem("$.version", f"version must be an integer, got {ver!r}")])
    if ver > version:
        raise DocumentError(path, [Problem(
            "$.version", f"version {ver} is newer than this toolkit reads (up to {version}); upgrade ironcross")])
    if ver < 1:
        raise DocumentError(path, [Problem("$.version", f"version must be >= 1, got {ver}")])
    try:
        doc = model.model_validate(data)
    except ValidationError as e:
        raise DocumentError(path, _validation_problems(e, data)) from None
    if checks is not None:
        problems = checks(doc)
        if problems:
            raise DocumentError(path, problems)
    return doc


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, then rename."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, flushed to disk,
    then renamed over ``path``; on any failure (a full disk) the temporary file is removed and
    ``path`` is untouched. A symbolic link is followed (its target is written, the link stays); a
    path that is no regular file (``/dev/stdout``, a named pipe) is written through, as a plain
    open() would, since nothing could be renamed over it. Raises OSError (IsADirectoryError for a
    folder)."""
    p = Path(path)
    if p.is_symlink():
        p = p.resolve()
    if p.exists() and not p.is_file():
        if p.is_dir():
            raise IsADirectoryError(21, "is a folder", str(path))
        with open(p, "wb") as f:
            f.write(data)
        return
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a part of the folder's path is a file
        bad = next((q for q in (p.parent, *p.parent.parents) if q.exists() and not q.is_dir()), p.parent)
        raise NotADirectoryError(20, f"{bad} is a file, not a folder", str(bad)) from None
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=str(p.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file private (0600); give it the mode a plain open() would (0666 & ~umask),
        # or the mode of the file it replaces
        try:
            mode = os.stat(p).st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_document(path: str | os.PathLike[str], doc: BaseModel) -> None:
    """Save a pydantic document as indented JSON, atomically (write, then rename)."""
    data = doc.model_dump(mode="json", exclude_none=True)
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
