"""One module per ``ur-variants`` subcommand, each with ``add_arguments`` and ``run``.

Command modules import their heavy dependencies inside ``run`` so ``--help`` stays fast.
"""
