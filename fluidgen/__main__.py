"""`python -m fluidgen` and the `fluidgen` console script."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # The common case in Argo CD and pre-commit is a rebuild of unchanged inputs: try the
    # cache before importing click, pydantic or ruamel (see cache.py).
    from . import cache

    if cache.serve(args, sys.stdout.write, sys.stderr.write):
        return 0
    # pydantic looks for plugins through every installed package's entry points when the
    # first model is built (~18 ms, importing email, zipfile and csv); fluidgen uses none.
    import os

    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from .cli import run

    return run(args, cache_argv=args)


if __name__ == "__main__":
    sys.exit(main())
