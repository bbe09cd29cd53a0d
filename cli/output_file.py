"""The type of every command-line option that names a file to write (``-o``, ``--json``)."""

from __future__ import annotations

import os

import click

__all__ = ["OutputFile", "OUTPUT_FILE"]


class OutputFile(click.ParamType):
    """A file the command writes. A path that names an existing folder is invalid input
    (``cli.main.InputError``, exit 1, the option and the path named) before any work is done, as a
    folder given for an input file is, not click's usage error (exit 2). A missing parent folder is
    left to the writer, which names the path."""

    name = "file"

    def convert(self, value, param, ctx) -> str:
        from cli.main import InputError  # cli.main imports this module

        path = os.fspath(value)
        if os.path.isdir(path):
            opt = max(param.opts, key=len) if param is not None and param.opts else "output"
            raise InputError(f"{opt} {path}: is a folder; a file is wanted")
        return path


#: the one instance the commands name
OUTPUT_FILE = OutputFile()
