"""`python -m fluidgen` and the `fluidgen` console script."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # The common case in Argo CD and pre-commit is a rebuild of unchanged inputs: try the
    # cache before importing click, pydantic or ruamel (see cache.py).
    from .io import cache

    if cache.serve(args, sys.stdout.write, sys.stderr.write):
        return 0
    # A compile allocates many short-lived containers and makes few reference cycles: with
    # Python's default threshold (700) the cyclic collector ran 306 times in a build of 1000
    # specs (279 young, 25 middle, 2 full), rescanning what the imports made; with 10000, 28
    # young and none else. That took 4-5% off the batch (CPU time, same peak memory: 70 MB)
    # and 2% off a single uncached build. Only the command line: the Python API leaves its
    # host's collector alone.
    import gc

    gc.set_threshold(10_000, 50, 100)
    # pydantic looks for plugins through every installed package's entry points when the
    # first model is built (~18 ms, importing email, zipfile and csv); fluidgen uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in ("__all__", "1", "true"):
        _no_plugin_loader()
    from .cli import run

    return run(args, cache_argv=args)


def _no_plugin_loader() -> None:
    """pydantic imports its plugin loader at the first model build even with plugins off, and
    the loader imports importlib.metadata (with email, zipfile and csv: ~16-23 ms) at its
    top. With plugins off its get_plugins() returns () without looking (pydantic
    plugin/_loader.py, 2.x); a stand-in that returns the same saves the import. Not done
    when a user's PYDANTIC_DISABLE_PLUGINS names only some plugins."""
    import types

    loader = types.ModuleType("pydantic.plugin._loader")
    loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
    sys.modules.setdefault("pydantic.plugin._loader", loader)


def console() -> None:
    """The console script and `python -m fluidgen`: main(), its output flushed here, then out
    without tearing the interpreter down. Freeing every object one by one took a build of
    1000 specs 40 ms (5% of it) after its output was complete (as mypy's hard_exit). Output
    that cannot be written is an error (exit 1), as it is during the build; a reader that left
    (`| head`) is not. Whatever happens outside the command itself (the cache serving a hit,
    start-up imports) ends in one line too: output that cannot be written (a closed stdout,
    /dev/full) or a dependency missing from the installation exit 1, Ctrl-C exit 130, a bug exit
    3, never a traceback."""
    _standard_streams()
    try:
        code = main()
        sys.stdout.flush()
        sys.stderr.flush()
    except KeyboardInterrupt:
        _say("fluidgen: interrupted")
        code = 130
    except BrokenPipeError:
        code = 0
    except OSError as exc:
        _say(f"fluidgen: error: {exc.strerror or exc} (output)")
        code = 1
    except ModuleNotFoundError as exc:
        if (exc.name or "fluidgen").partition(".")[0] == "fluidgen":
            _say("fluidgen: internal error, please report it at the fluidgen issue tracker")
            code = 3
        else:  # a dependency missing from the installation (pip install --no-deps): the machine's
            _say(f"fluidgen: error: {exc.name} is not installed in this Python environment; reinstall fluidgen")
            code = 1
    except Exception:  # a bug before or after the command line's own handling (cli.run)
        _say("fluidgen: internal error, please report it at the fluidgen issue tracker")
        code = 3
    os._exit(code)


def _say(line: str) -> None:
    with contextlib.suppress(OSError):  # stderr closed or full too: the exit code still says it
        os.write(2, (line + "\n").encode())


class _Closed(io.TextIOBase):
    """Standard output that was closed when fluidgen started (`fluidgen build >&-`): writing
    to it is an error with its reason, as writing to a full disk is."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _standard_streams() -> None:
    """A closed stdout or stderr (None in sys): its descriptor is taken by /dev/null so no file
    fluidgen or a tool it runs opens becomes it; stdout then refuses every write (an error, never
    output silently lost), stderr drops what it is given (nothing could be told)."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_WRONLY)  # the lowest free descriptor: this one
        setattr(sys, name, _Closed() if fd == 1 else open(os.devnull, "w"))  # noqa: SIM115


if __name__ == "__main__":
    console()
