"""``mkdocs build``, with its work on each page shared among the cores.

mkdocs works on one page after another: first it converts every page's Markdown, then it puts
every page into the theme's template and indexes it for search. On this site that is nearly all
of its time (541 pages; the pair pages alone, 16 KB of Markdown each, took 10 s of a 27 s
build), and the second core idles. Each page's work reads only that page and what mkdocs
gathered before the step (the configuration, the files, the navigation), so the pages can be
shared out. At a step's first page, :class:`SharedStep` forks workers (:func:`shares`: about as
many bytes each); each runs mkdocs' own function on its pages, exactly as mkdocs would, and
sends back what the main process needs of them and what it logged, while the main process does
its own pages. At the step's last page the main process takes the workers' results and logs
their messages, where ``--strict`` counts them.

- Converting (:class:`Conversion`, mkdocs' ``_populate_page``): a worker sends what conversion
  sets on a page (its Markdown, metadata, HTML, table of contents, title, anchors and its
  links to other pages' anchors), set on the main process's pages, which the rest of the build
  reads as if it had converted them itself.
- Writing (:class:`Writing`, ``_build_page``): a worker writes its pages' HTML files itself and
  sends the search index's entries for them; the main process puts every page's entries back
  in the build's page order, so the search index is the one a serial build writes.

No pipe can stall the build. Each worker's pipe has a reader thread of its own, started with
the worker, which takes the results as soon as they are sent, so a worker never waits on a full
pipe (its results are often larger than the pipe's 64 KB) for a main process that is busy or
has failed. When the main process fails in a step (a full disk, a page's error), it kills the
step's workers before the error goes on, rather than waiting at its exit for workers that would
finish their pages for nothing. A worker that dies (killed, or out of memory) fails the build
with a message saying so.

The site is the same, file for file, as plain ``mkdocs build`` writes (a test builds it both
ways and compares every file). Everything else (static files, the anchor checks, ``post_build``)
is mkdocs' own, unchanged. Run as ``python -m generator.site.mkdocs_parallel build --strict ...``
(mkdocs' own command line). Where sharing is impossible or unsafe it is plain mkdocs: one core,
``--dirty``, no ``os.fork``, an mkdocs other than the 1.6 series it was written against, or a
plugin other than those it knows keep no state per page (search's index is handled).
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from mkdocs.commands import build as mkdocs_build
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import BuildError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from generator.processes import ChildFailed, Forked
from generator.site.settings import MKDOCS_JOBS, MOST_JOBS, whole_number

JOBS_VARIABLE = MKDOCS_JOBS
"""Processes to share the pages among, 1 to :data:`~generator.site.settings.MOST_JOBS`
(default: the cores this process may use)."""

MKDOCS_SERIES = "1.6."
"""The mkdocs releases whose internals this was written against; with others, plain mkdocs."""

KNOWN_PLUGINS = frozenset({"material/search", "search", "redirects"})
"""Plugins known to keep no state per page, but for search's index (:class:`Writing`)."""

PAGE_FIELDS = ("markdown", "meta", "content", "toc", "_title_from_render", "present_anchor_ids")
"""What converting a page sets on it (``Page.read_source`` and ``Page.render``), besides
``links_to_anchors``, whose keys are files and are sent by their source path."""

BUILD_PAGE_ARGUMENTS = ("page", "config", "doc_files", "nav", "env", "dirty", "excluded")

Record = tuple[str, int, str]
"""A log record as sent back: the logger's name, the level and the message."""

Sent = tuple[dict[str, Any], list[Record], str | None]
"""What a worker sends back: its results by page source path, its log records in order, and
the error that stopped it, if one did."""

T = TypeVar("T")


def shares(items: Sequence[T], jobs: int, size: Callable[[T], int]) -> list[list[T]]:
    """``items`` shared among ``jobs`` processes, each share about as large as the others
    (largest first, each to the lightest share), each in the items' order.

    >>> shares(["aaaaa", "bbb", "ccc"], 2, len)
    [['aaaaa'], ['bbb', 'ccc']]
    """
    sizes = [size(item) for item in items]
    loads = [0] * jobs
    split: list[list[int]] = [[] for _ in range(jobs)]
    for k in sorted(range(len(items)), key=lambda k: -sizes[k]):
        lightest = loads.index(min(loads))
        split[lightest].append(k)
        loads[lightest] += sizes[k]
    return [[items[k] for k in sorted(share)] for share in split]


def _source_bytes(file: File) -> int:
    """A page's Markdown, in bytes (a page a plugin made has no file: counted as nothing)."""
    return os.path.getsize(file.abs_src_path) if file.abs_src_path else 0


class _Collector(logging.Handler):
    """Keeps a worker's log records, for the main process to log."""

    def __init__(self, into: list[Record]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append((record.name, record.levelno, record.getMessage()))


def _collect_logs(into: list[Record]) -> None:
    """In a worker: every log record goes to ``into``, once, and none to the terminal. A
    record climbs the loggers' hierarchy to the root or to the first that does not pass
    records on (mkdocs' own): each of those collects, no other logger handles anything."""
    collector = _Collector(into)
    named = [v for v in logging.root.manager.loggerDict.values() if isinstance(v, logging.Logger)]
    for logger in [logging.getLogger(), *named]:
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        if not logger.propagate or logger is logging.getLogger():
            logger.addHandler(collector)


class Reader:
    """A worker and the thread that reads its pipe: the thread takes the worker's result as
    soon as it is sent (or the news that the worker died), so the worker never blocks on a
    full pipe, whatever the main process is doing."""

    def __init__(self, worker: Forked[Sent]) -> None:
        self.worker = worker
        self.outcome: Sent | BaseException | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        try:
            self.outcome = self.worker.result()
        except BaseException as error:  # raised in the main thread by :meth:`result`
            self.outcome = error

    def result(self) -> Sent:
        """The worker's result, once it is in; a worker that died is a :class:`BuildError`."""
        self.thread.join()
        outcome = self.outcome
        if isinstance(outcome, ChildFailed):
            raise BuildError(
                f"a process sharing mkdocs' pages ended without sending them back ({outcome});"
                " it was killed, perhaps for want of memory: build again"
            )
        if isinstance(outcome, BaseException):
            raise outcome
        assert outcome is not None
        return outcome

    def stop(self) -> None:
        """Kill the worker if it still runs, and let its reader end."""
        self.worker.__exit__(None, None, None)
        self.thread.join()


class SharedStep:
    """Stands in for one of mkdocs' per-page functions (``_populate_page``, ``_build_page``)
    during one build: the first call shares the step's pages out to forked workers, each page
    is then done by whoever has it, and the last call takes in the workers' results. An error
    in the main process during the step kills the step's workers (:meth:`stop`)."""

    def __init__(self, original: Callable[..., None], jobs: int) -> None:
        self.original = original
        self.jobs = jobs
        self.workers: list[Reader] = []
        self.theirs: set[str] = set()
        self.last: str | None = None
        self.started = False

    # What a step does differently.
    def pages(self, args: tuple[Any, ...]) -> list[File]:
        """The step's pages in the build's order, from the first call's other arguments."""
        raise NotImplementedError

    def run(self, file: File, args: tuple[Any, ...]) -> Any:
        """In a worker: mkdocs' function on ``file``'s page; what to send back of it."""
        raise NotImplementedError

    def adopt(self, results: dict[str, Any], args: tuple[Any, ...]) -> None:
        """In the main process: take in a worker's results, by source path."""
        raise NotImplementedError

    def finish(self, args: tuple[Any, ...]) -> None:
        """In the main process, after every worker's results are in."""

    def own(self, page: Page, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.original(page, *args, **kwargs)

    def begin(self, args: tuple[Any, ...]) -> None:
        """In the main process, at the step's first page, before any worker starts."""

    def safe(self, args: tuple[Any, ...]) -> bool:
        """Whether the pages can be shared, beyond the plugins being known."""
        return True

    def __call__(self, page: Page, *args: Any, **kwargs: Any) -> None:
        try:
            self._call(page, args, kwargs)
        except BaseException:
            self.stop()
            raise

    def _call(self, page: Page, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if not self.started:
            self.started = True
            self.begin(args)
            config: MkDocsConfig = args[0]
            if set(config.plugins) <= KNOWN_PLUGINS and self.safe(args):
                self._start(args)
        if page.file.src_uri not in self.theirs:
            self.own(page, args, kwargs)
        if page.file.src_uri == self.last:
            for worker in list(self.workers):
                pages, records, error = worker.result()
                self.workers.remove(worker)
                for name, level, message in records:
                    logging.getLogger(name).log(level, message)
                if error is not None:
                    raise RuntimeError(f"a page failed in a worker process:\n{error}")
                self.adopt(pages, args)
            self.finish(args)

    def stop(self) -> None:
        """Kill the step's workers whose results were not taken (the build failed)."""
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.stop()

    def _start(self, args: tuple[Any, ...]) -> None:
        pages = self.pages(args)
        if self.jobs < 2 or len(pages) < 2 * self.jobs:
            return
        _, *others = shares(pages, self.jobs, _source_bytes)
        forked = []
        for share in others:
            # A forked worker (generator.processes.Forked) dies with the build: a killed
            # build leaves none writing pages.
            forked.append(Forked(functools.partial(self._work, share, args)))
            self.theirs.update(f.src_uri for f in share)
        # The readers start once every worker is forked: no worker is forked while a thread
        # of this process runs.
        self.workers = [Reader(worker) for worker in forked]
        for reader in self.workers:
            reader.thread.start()
        self.last = pages[-1].src_uri

    def _work(self, share: list[File], args: tuple[Any, ...]) -> Sent:
        """In a worker: every page of ``share``, then its results, its log records and the
        error that stopped it, as plain data (a page's failure is sent with the records
        logged before it, and fails the build in the main process)."""
        pages: dict[str, Any] = {}
        records: list[Record] = []
        _collect_logs(records)
        try:
            for file in share:
                pages[file.src_uri] = self.run(file, args)
        except BaseException:
            return pages, records, traceback.format_exc()
        return pages, records, None


class Conversion(SharedStep):
    """mkdocs' ``_populate_page(page, config, files, dirty)``: a page's Markdown to HTML."""

    def pages(self, args: tuple[Any, ...]) -> list[File]:
        files: Files = args[1]
        return list(files.documentation_pages())

    def run(self, file: File, args: tuple[Any, ...]) -> dict[str, Any]:
        config: MkDocsConfig = args[0]
        if file.page is None:  # not in the navigation: mkdocs makes its page in its loop
            Page(None, file, config)
        page = file.page
        assert page is not None
        self.original(page, *args)
        links = page.links_to_anchors
        return {
            **{name: getattr(page, name) for name in PAGE_FIELDS},
            "links_to_anchors": None
            if links is None
            else {target.src_uri: to for target, to in links.items()},
        }

    def adopt(self, results: dict[str, Any], args: tuple[Any, ...]) -> None:
        config: MkDocsConfig = args[0]
        files: Files = args[1]
        by_uri = {f.src_uri: f for f in files}
        for uri, fields in results.items():
            file = by_uri[uri]
            page = file.page if file.page is not None else Page(None, file, config)
            for name in PAGE_FIELDS:
                setattr(page, name, fields[name])
            links = fields["links_to_anchors"]
            page.links_to_anchors = (
                None if links is None else {by_uri[t]: to for t, to in links.items()}
            )


class Writing(SharedStep):
    """mkdocs' ``_build_page(page, config, doc_files, nav, env, dirty, excluded)``: a page
    in the theme's template, written to the site, and indexed for search. A worker writes
    its pages' files itself; the search entries of every page are put back in page order."""

    def __init__(self, original: Callable[..., None], jobs: int) -> None:
        super().__init__(original, jobs)
        self.entries: dict[str, list[Any]] = {}
        self.before: list[Any] = []

    def pages(self, args: tuple[Any, ...]) -> list[File]:
        return list(args[1])

    def _index(self, args: tuple[Any, ...]) -> list[Any] | None:
        """The search index's list of entries: ``entries`` in Material's search plugin,
        ``_entries`` in mkdocs' own (None when there is no search, or an index of another
        shape, which :meth:`safe` refuses to share)."""
        config: MkDocsConfig = args[0]
        for plugin in config.plugins.values():
            index = getattr(plugin, "search_index", None)
            if index is not None:
                entries = getattr(index, "entries", getattr(index, "_entries", None))
                return entries if isinstance(entries, list) else None
        return None

    def safe(self, args: tuple[Any, ...]) -> bool:
        config: MkDocsConfig = args[0]
        searched = any(getattr(p, "search_index", None) for p in config.plugins.values())
        return not searched or self._index(args) is not None

    def _build(self, page: Page, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        index = self._index(args)
        start = len(index) if index is not None else 0
        self.original(page, *args, **kwargs)
        return index[start:] if index is not None else []

    def begin(self, args: tuple[Any, ...]) -> None:
        self.before = list(self._index(args) or [])

    def own(self, page: Page, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.entries[page.file.src_uri] = self._build(page, args, kwargs)

    def run(self, file: File, args: tuple[Any, ...]) -> list[Any]:
        assert file.page is not None
        excluded = file.inclusion.is_excluded()  # type: ignore[no-untyped-call]
        return self._build(file.page, args[:5], {"excluded": excluded})

    def adopt(self, results: dict[str, Any], args: tuple[Any, ...]) -> None:
        self.entries.update(results)

    def finish(self, args: tuple[Any, ...]) -> None:
        index = self._index(args)
        if index is None:
            return
        ordered = [e for f in self.pages(args) for e in self.entries.get(f.src_uri, [])]
        index[:] = self.before + ordered


def jobs() -> int:
    """Processes to share the pages among: :data:`JOBS_VARIABLE`, else the usable cores
    (:class:`~generator.site.settings.SettingError` when the variable is malformed)."""
    chosen = whole_number(JOBS_VARIABLE, MOST_JOBS)
    if chosen is not None:
        return chosen
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


def shareable(arguments: Sequence[str]) -> bool:
    """Whether mkdocs has the internals this was written against and the command is a full
    build (not ``--dirty``); else the build is plain mkdocs. (Unknown plugins are checked
    when the build starts, :data:`KNOWN_PLUGINS`.)"""
    import mkdocs

    def names(function: str) -> tuple[str, ...]:
        found = getattr(mkdocs_build, function, None)
        return found.__code__.co_varnames[:7] if callable(found) else ()

    return (
        hasattr(os, "fork")
        and mkdocs.__version__.startswith(MKDOCS_SERIES)
        and names("_populate_page")[:4] == ("page", "config", "files", "dirty")
        and names("_build_page")
        == ("page", "config", "doc_files", "nav", "env", "dirty", "excluded")
        and arguments[:1] == ["build"]
        and "--dirty" not in arguments
    )


def main(argv: list[str] | None = None) -> int:
    """mkdocs' command line, its pages shared among the cores where that is safe."""
    from mkdocs.__main__ import cli

    arguments = list(sys.argv[1:] if argv is None else argv)
    steps: list[SharedStep] = []
    if jobs() > 1 and shareable(arguments):
        steps = [
            Conversion(mkdocs_build._populate_page, jobs()),
            Writing(mkdocs_build._build_page, jobs()),
        ]
        mkdocs_build._populate_page, mkdocs_build._build_page = steps
    try:
        cli.main(args=arguments, prog_name="mkdocs")
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    finally:
        for step in steps:  # a failure outside a step's calls: no worker outlives the build
            step.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
