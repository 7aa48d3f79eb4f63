"""The ``ur-variants`` command line: one subcommand per module in :mod:`generator.commands`.

Subcommand modules are imported only when used, so ``ur-variants validate`` does not pay for
the simulator's native compilation.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

from generator.files import WriteError


def commands() -> list[str]:
    """Subcommand modules: every module in :mod:`generator.commands`, in their ``ORDER``
    (a module ``full_games`` is the subcommand ``full-games``)."""
    import generator.commands as package

    names = [m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")]
    modules = {name: importlib.import_module(f"generator.commands.{name}") for name in names}
    return sorted(names, key=lambda name: (getattr(modules[name], "ORDER", 99), name))


def default_root() -> Path:
    """The project folder: the current directory if it has variants/, else the checkout."""
    if Path("variants").is_dir():
        return Path(".")  # relative, so problems read as variants/x.yml:12
    return Path(__file__).resolve().parent.parent


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ur-variants",
        description="The Royal Game of Ur's rulebooks as data: validate, play, simulate, publish.",
    )
    parser.add_argument(
        "--root", type=Path, default=None, help="project folder (default: the checkout)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in commands():
        module = importlib.import_module(f"generator.commands.{name}")
        help_text = (module.__doc__ or name).strip().splitlines()[0]
        command = sub.add_parser(name.replace("_", "-"), help=help_text, description=module.__doc__)
        module.add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    if args.root is None:
        args.root = default_root()
    module = importlib.import_module(f"generator.commands.{args.command.replace('-', '_')}")
    try:
        code: int = module.run(args)
    except WriteError as error:  # a full disk, say: which file, why, and that it is unharmed
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    raise SystemExit(main())
