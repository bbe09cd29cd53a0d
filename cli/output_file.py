"""The type of every command-line option that names a file to write (``-o``, ``--json``)."""

from __future__ import annotations

import os

import click

__all__ = ["OutputFile", "OUTPUT_FILE"]


class OutputFile(click.ParamType):
    """A file the command writes. A path that names a folder (an existing one, or any name ending in
    a slash) or lies below a file is invalid input (``cli.main.InputError``, exit 1, the option and
    the path named) before any work is done, as a folder given for an input file is, not click's
    usage error (exit 2). A missing parent folder is made by the writer."""

    name = "file"

    def convert(self, value, param, ctx) -> str:
        from cli.main import InputError  # cli.main imports this module

        path = os.fspath(value)
        opt = max(param.opts, key=len) if param is not None and param.opts else "output"
        # a name ending in a slash names a folder, made or not (else "DIR/" would write a file DIR)
        if os.path.isdir(path) or path.endswith(("/", os.sep)):
            raise InputError(f"{opt} {path}: is a folder; a file is wanted")
        parent = os.path.dirname(os.path.abspath(path))
        while parent and not os.path.exists(parent) and os.path.dirname(parent) != parent:
            parent = os.path.dirname(parent)  # the nearest folder that exists: a missing one is made
        if os.path.exists(parent) and not os.path.isdir(parent):
            raise InputError(f"{opt} {path}: {parent} is a file, not a folder")
        return path


#: the one instance the commands name
OUTPUT_FILE = OutputFile()
