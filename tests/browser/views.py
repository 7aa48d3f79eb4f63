"""Questions a test asks a page about what the reader sees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error, Page

# Returns "" when the element with this id is a heading a reader can see right now: inside the
# viewport and not covered by the theme's sticky header; otherwise what is wrong.
_HEADING_VIEW_PROBLEM = """
(id) => {
  const heading = document.getElementById(id);
  if (!heading) return `no element has id="${id}"`;
  if (!/^H[1-6]$/.test(heading.tagName))
    return `id="${id}" is on a <${heading.tagName.toLowerCase()}>, not a heading`;
  const box = heading.getBoundingClientRect();
  if (box.height === 0) return `the heading "${id}" is not displayed`;
  if (box.bottom <= 0 || box.top >= window.innerHeight)
    return `the heading is out of view (top ${Math.round(box.top)} px, ` +
           `viewport ${window.innerHeight} px)`;
  // Probe a point on the heading's first line: is it the heading the reader sees there?
  const top = Math.max(box.top, 0);
  const x = box.left + Math.min(box.width / 2, 16);
  const y = top + Math.min(box.height, window.innerHeight - top) / 2;
  const seen = document.elementFromPoint(x, y);
  if (seen !== heading && !heading.contains(seen)) {
    const what = seen ? `${seen.tagName.toLowerCase()} class="${seen.className}"` : 'nothing';
    return `the heading is covered by <${what}>`;
  }
  return "";
}
"""


def heading_view_problem(page: Page, element_id: str, timeout_ms: float = 3_000) -> str:
    """Wait until the heading ``element_id`` is in view; if it never is, say why ("" if fine)."""
    try:
        page.wait_for_function(
            f"(id) => ({_HEADING_VIEW_PROBLEM})(id) === ''", arg=element_id, timeout=timeout_ms
        )
    except Error:
        problem: str = page.evaluate(_HEADING_VIEW_PROBLEM, element_id)
        return problem or "the heading came into view only after the timeout"
    return ""


# A reader's in-page jump, checked at once: from the top of the page, change the address's
# #fragment (clearing it first if it already names the target) and ask whether the heading is
# now in view. Checked in the same task, before the theme's own scroll restoration runs: its
# 100 ms debounce races with jumps made faster than a person makes them.
_JUMP_AND_CHECK = """
([ids, problemOf]) => {
  const check = eval(problemOf);
  return ids.map((id) => {
    window.scrollTo(0, 0);
    if (decodeURIComponent(location.hash.slice(1)) === id)
      history.replaceState(history.state, '', location.pathname + location.search);
    location.hash = encodeURIComponent(id);
    return [id, check(id)];
  }).filter(([, problem]) => problem !== '');
}
"""


def jump_problems(page: Page, element_ids: list[str]) -> list[tuple[str, str]]:
    """For each id, jump to ``#id`` on the loaded page; (id, problem) for headings not in view."""
    found: list[list[str]] = page.evaluate(_JUMP_AND_CHECK, [element_ids, _HEADING_VIEW_PROBLEM])
    return [(element_id, problem) for element_id, problem in found]


# Loads every image now (lazy ones included) and reports those that did not decode.
_BROKEN_IMAGES = """
async () => {
  const images = [...document.images];
  for (const image of images) image.loading = "eager";
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  return images
    .filter((image) => !(image.complete && image.naturalWidth > 0))
    .map((image) => `image ${image.currentSrc || image.src} did not load`);
}
"""


def broken_images(page: Page) -> list[str]:
    problems: list[str] = page.evaluate(_BROKEN_IMAGES)
    return problems


CONTENT = "article"
# Opens collapsed <details> in the content, then reports each content image and role=img SVG:
# its kind, whether it is displayed where it sits (not in a hidden tab), its size and its text
# alternative.
_MEDIA = """
(content) => {
  const root = document.querySelector(content) ?? document.body;
  for (const details of root.querySelectorAll('details:not([open])')) details.open = true;
  const alternative = (el) => {
    if (el.tagName === 'IMG') return (el.getAttribute('alt') ?? '').trim();
    const title = [...el.children].find((child) => child.tagName.toLowerCase() === 'title');
    const labelledBy = (el.getAttribute('aria-labelledby') ?? '').split(/\\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    return (title?.textContent || el.getAttribute('aria-label') || labelledBy).trim();
  };
  return [...root.querySelectorAll('img, svg[role="img"]')].map((el) => {
    const box = el.getBoundingClientRect();
    return {
      kind: el.tagName === 'IMG' ? 'img' : 'svg',
      name: el.tagName === 'IMG' ? el.getAttribute('src') : (el.id || el.outerHTML.slice(0, 60)),
      displayed: el.parentElement.checkVisibility(),
      width: box.width,
      height: box.height,
      alternative: alternative(el),
    };
  });
}
"""


@dataclass(frozen=True)
class Medium:
    """A chart or diagram in the page content: an ``<img>`` or an ``<svg role="img">``."""

    kind: str
    name: str
    displayed: bool
    width: float
    height: float
    alternative: str

    def problems(self) -> list[str]:
        found = []
        if not self.alternative:
            what = "alt text" if self.kind == "img" else "a <title> (or aria-label)"
            found.append(f"{self.kind} {self.name} has no text alternative: give it {what}")
        if self.displayed and (self.width <= 0 or self.height <= 0):
            found.append(f"{self.kind} {self.name} is displayed with no size")
        return found


def page_media(page: Page) -> list[Medium]:
    """The content's charts and diagrams (opens collapsed details to see inside them)."""
    raw: list[dict[str, Any]] = page.evaluate(_MEDIA, CONTENT)
    return [
        Medium(
            kind=str(m["kind"]),
            name=str(m["name"]),
            displayed=bool(m["displayed"]),
            width=float(m["width"]),
            height=float(m["height"]),
            alternative=str(m["alternative"]),
        )
        for m in raw
    ]
