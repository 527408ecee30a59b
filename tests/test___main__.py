"""__main__.py: the console script. main() serves a cache hit without running the command line,
else runs it with the cyclic collector's threshold raised and pydantic's plugin search off (a
user's own PYDANTIC_DISABLE_PLUGINS naming some plugins is left alone), and returns its exit
code: 1 for a user error, 2 for a usage error, 3 for a bug, each said on stderr without a
traceback, never nothing and 0 on a failure. console() ends the process with that code after
flushing, and whatever escapes main (Ctrl-C, output that cannot be written) ends in one line:
130 interrupted, 1 output error, 0 for a reader that left; a closed stdout refuses writes."""

from __future__ import annotations

import errno
import gc
import io
import os
import sys
from collections.abc import Callable, Iterator

import pytest

from fluidgen import __main__ as console_script
from fluidgen.commands import explain
from fluidgen.io import cache


class Exited(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No cache, no traceback setting; the collector's thresholds are given back."""
    monkeypatch.setenv("FLUIDGEN_NO_CACHE", "1")
    monkeypatch.delenv("FLUIDGEN_TRACEBACK", raising=False)
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def _console(monkeypatch: pytest.MonkeyPatch, main: Callable[[], int]) -> int:
    """console() with this main, its os._exit caught: the exit code."""
    monkeypatch.setattr(console_script, "main", main)

    def exit_(code: int) -> None:
        raise Exited(code)

    monkeypatch.setattr(os, "_exit", exit_)
    with pytest.raises(Exited) as caught:
        console_script.console()
    return caught.value.code


def test_a_user_error_exits_1_with_its_diagnostics(capsys: pytest.CaptureFixture[str]) -> None:
    assert console_script.main(["build", "missing.yaml"]) == 1
    assert capsys.readouterr() == ("", "missing.yaml: error: cannot read: No such file or directory\n"
                                       "fluidgen: 1 error; nothing was written\n")


def test_a_usage_error_exits_2_with_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert console_script.main(["lint", "--format", "xml"]) == 2
    assert capsys.readouterr() == ("", "Usage: fluidgen lint [OPTIONS] [FILES]...\nTry 'fluidgen lint --help' for "
                                       "help.\n\nError: Invalid value for '--format': 'xml' is not one of 'text', "
                                       "'json'.\n")


def test_a_bug_exits_3_in_one_line_without_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(explain, "execute", broken)
    assert console_script.main(["explain"]) == 3
    assert capsys.readouterr() == ("", "fluidgen: internal error, please report it at the fluidgen issue tracker "
                                       "(rerun with --traceback for details)\n")


def test_a_cache_hit_is_served_without_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[list[str]] = []

    def serve(argv: list[str], write: object, write_err: object) -> bool:
        served.append(argv)
        return True

    def run(argv: list[str], cache_argv: list[str] | None = None) -> int:
        raise AssertionError("the command line ran on a cache hit")

    monkeypatch.setattr(cache, "serve", serve)
    monkeypatch.setattr("fluidgen.cli.run", run)
    assert console_script.main(["build", "spec.yaml"]) == 0
    assert served == [["build", "spec.yaml"]]


def test_a_miss_runs_the_command_line_with_its_argv_as_the_cache_key(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[tuple[list[str], list[str] | None]] = []

    def run(argv: list[str], cache_argv: list[str] | None = None) -> int:
        ran.append((argv, cache_argv))
        return 7

    monkeypatch.setattr("fluidgen.cli.run", run)
    monkeypatch.setattr(sys, "argv", ["fluidgen", "build", "-q", "spec.yaml"])
    assert console_script.main() == 7
    assert ran == [(["build", "-q", "spec.yaml"], ["build", "-q", "spec.yaml"])]
    assert gc.get_threshold() == (10_000, 50, 100)


@pytest.mark.parametrize(("given", "replaced"), [(None, True), ("1", True), ("true", True), ("__all__", True),
                                                 ("logfire", False)])
def test_pydantics_plugin_loader_is_replaced_only_when_every_plugin_is_off(
        monkeypatch: pytest.MonkeyPatch, given: str | None, replaced: bool) -> None:
    if given is None:
        monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    else:
        monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", given)
    calls: list[None] = []
    monkeypatch.setattr(console_script, "_no_plugin_loader", lambda: calls.append(None))
    monkeypatch.setattr("fluidgen.cli.run", lambda argv, cache_argv=None: 0)
    console_script.main(["--version"])
    assert (os.environ["PYDANTIC_DISABLE_PLUGINS"], len(calls)) == (given or "__all__", int(replaced))


def test_the_stand_in_plugin_loader_finds_no_plugins_and_never_replaces_a_loaded_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "pydantic.plugin._loader", raising=False)
    console_script._no_plugin_loader()
    assert sys.modules["pydantic.plugin._loader"].get_plugins() == ()
    loaded = sys.modules["pydantic.plugin._loader"]
    console_script._no_plugin_loader()
    assert sys.modules["pydantic.plugin._loader"] is loaded


def test_console_exits_with_mains_code_after_flushing_its_output(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    written = io.BufferedWriter(io.BytesIO())  # stand-in with a buffer: flushed only by flush()
    text = io.TextIOWrapper(written, write_through=False)
    monkeypatch.setattr(sys, "stdout", text)
    monkeypatch.setattr(sys, "stderr", out)

    def main() -> int:
        sys.stdout.write("kind: Dataset\n")
        return 3

    assert _console(monkeypatch, main) == 3
    assert written.raw.getvalue() == b"kind: Dataset\n"


@pytest.mark.parametrize(("raised", "code", "line"), [
    (KeyboardInterrupt(), 130, "fluidgen: interrupted\n"),
    (BrokenPipeError(errno.EPIPE, "Broken pipe"), 0, ""),
    (OSError(errno.ENOSPC, "No space left on device"), 1, "fluidgen: error: No space left on device (output)\n"),
    (OSError("no reason"), 1, "fluidgen: error: no reason (output)\n"),
    (ModuleNotFoundError("No module named 'click'", name="click"), 1,
     "fluidgen: error: click is not installed in this Python environment; reinstall fluidgen\n"),
    (ModuleNotFoundError("No module named 'fluidgen.gone'", name="fluidgen.gone"), 3,
     "fluidgen: internal error, please report it at the fluidgen issue tracker\n"),
    (RuntimeError("a bug on the way to the command line"), 3,
     "fluidgen: internal error, please report it at the fluidgen issue tracker\n"),
])
def test_what_escapes_main_ends_in_one_line_and_its_exit_code(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], raised: BaseException, code: int,
        line: str) -> None:
    def main() -> int:
        raise raised

    assert _console(monkeypatch, main) == code
    assert capfd.readouterr() == ("", line)


def test_a_line_that_cannot_be_told_is_dropped_and_the_exit_code_still_says_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def closed(fd: int, data: bytes) -> int:
        raise OSError(errno.EBADF, "Bad file descriptor")

    def main() -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "write", closed)
    assert _console(monkeypatch, main) == 130


def test_a_closed_stdout_refuses_every_write_and_a_closed_stderr_swallows(monkeypatch: pytest.MonkeyPatch) -> None:
    """sys.stdout and sys.stderr are None when the process started with them closed; their
    descriptors are open here (pytest's), so none is taken."""
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    console_script._standard_streams()
    with pytest.raises(OSError) as caught:
        print("objects")
    assert (caught.value.errno, caught.value.strerror) == (errno.EBADF, "standard output is closed")
    assert sys.stderr.write("lost") == 4
    sys.stderr.close()


def test_a_closed_descriptor_is_taken_so_no_file_opened_later_becomes_stdout() -> None:
    """In a process started with descriptor 1 closed, the next file opened after the streams are
    set up is not given descriptor 1 (where a tool's output would land in it)."""
    import subprocess

    code = ("import os, sys; from fluidgen.__main__ import _standard_streams; _standard_streams(); "
            "sys.stderr.write(f'{os.open(os.devnull, os.O_RDONLY)} {type(sys.stdout).__name__}')")
    proc = subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(1), text=True, check=False)
    assert (proc.returncode, proc.stderr) == (0, "3 _Closed")
