"""The built book as a reader sees it: every page of ``_build/html`` in headless Chromium.

``make browser`` (part of ``make test``, after the book is built) runs this module with
``PRML14_BROWSER=1``; elsewhere it is skipped. A thread serves ``_build/html`` on 127.0.0.1;
Debian's ``chromium`` driven through Debian's ``chromium-driver`` (selenium, no browser
download) loads every page with all other hosts unreachable. MathJax 3 comes from a local copy
(the PyPI package ``django-static-mathjax``, installed by ``make browser``): the server rewrites
the book's CDN address of MathJax to it, so the test runs offline while the published book keeps
the CDN. Per page it checks

* no JavaScript console errors;
* every equation typeset: each ``.math`` element holds a MathJax container, no MathJax error
  node, and no raw TeX (``$$``, ``\\(``, ``\\[``, ``$...$``, ``\\begin{``) left in the text
  (code and Python signatures aside);
* every image loaded, with a non-zero natural size;
* nothing wider than the content column (outside the margin notes), and nothing in it that
  scrolls sideways;
* every internal link, ``eq-14-NN`` / ``eq-b-NN`` references included, points to an existing
  page and anchor;
* the launch buttons (Binder, Colab on the paired notebook) on every executable page,

and saves a screenshot of the top of each page under ``_build/screenshots/``.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
HOW_TO_INSTALL = (
    "the browser test needs Chromium and its driver: on Debian/Ubuntu "
    "`sudo apt-get install chromium chromium-driver` (.ci/run does it), "
    "then `make browser`"
)
MATHJAX_CDN = re.compile(r"https://cdn\.jsdelivr\.net/npm/mathjax@3/(es5/[\w.-]+\.js)")
REPOSITORY = "prml14/prml14"
# Source listings of the package (sphinx.ext.viewcode): long lines scroll there by design.
SOURCE_LISTINGS = "_modules/"

pytestmark = pytest.mark.skipif(
    os.environ.get("PRML14_BROWSER") != "1",
    reason="the browser test runs in `make browser` (part of `make test`) on the built book",
)


def pages():
    """Every HTML page of the built book, as paths relative to _build/html."""
    if not HTML.is_dir():
        return []
    return sorted(
        p.relative_to(HTML).as_posix()
        for p in HTML.rglob("*.html")
        if not p.relative_to(HTML).as_posix().startswith(("_static/", "_sources/"))
    )


def executable_pages():
    """Pages with a paired notebook (a jupytext header): these get launch buttons."""
    return {
        f"book/{p.stem}.html"
        for p in (ROOT / "book").glob("*.md")
        if p.with_suffix(".ipynb").exists()
    }


@functools.cache
def anchors(page):
    """The ids defined in one built page."""
    text = (HTML / page).read_text(encoding="utf-8")
    return set(re.findall(r'\bid="([^"]+)"', text))


def mathjax_dir():
    spec = importlib.util.find_spec("mathjax")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "static" / "mathjax"
    return path if (path / "es5" / "tex-mml-chtml.js").exists() else None


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves _build/html, MathJax under /_mathjax/, and points the pages at the local copy."""

    mathjax = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(HTML), **kwargs)

    def do_GET(self):
        path = unquote(urlparse(self.path).path)
        if path.startswith("/_mathjax/"):
            return self._send(self.mathjax / path.removeprefix("/_mathjax/"))
        if path == "/favicon.ico":  # asked for by the browser itself, not by a page
            return self._send_bytes(b"", "image/x-icon")
        if path.endswith((".html", "/")):
            file = HTML / path.lstrip("/")
            file = file / "index.html" if file.is_dir() else file
            if file.is_file():
                text = file.read_text(encoding="utf-8")
                text = MATHJAX_CDN.sub(r"/_mathjax/\1", text)
                return self._send_bytes(text.encode(), "text/html; charset=utf-8")
        return super().do_GET()

    def _send(self, file):
        if not file.is_file():
            return self.send_error(404)
        kind = self.guess_type(str(file))
        return self._send_bytes(file.read_bytes(), kind)

    def _send_bytes(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    if not (HTML / "index.html").exists():
        pytest.fail("no built book in _build/html: run `make book-check` (or `make browser`)")
    Handler.mathjax = mathjax_dir()
    if Handler.mathjax is None:
        pytest.fail("no local MathJax: `make browser` installs django-static-mathjax")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip(HOW_TO_INSTALL)
    webdriver = pytest.importorskip("selenium.webdriver", reason=HOW_TO_INSTALL)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="prml14-chromium-")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1440,900",  # the theme's full content width (854 px)
        # no network: every host but the local server fails at once
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


# Resolves when MathJax has typeset the page (or at once on a page without maths) and every
# image has finished loading.
WAIT_FOR_PAGE = """
const done = arguments[arguments.length - 1];
const started = Date.now();
function imagesDone() {
  return Array.from(document.images).every((img) => img.complete);
}
function poll() {
  const hasMath = document.querySelector(".math") !== null;
  const mj = window.MathJax;
  if (Date.now() - started > 45000) { done("timeout"); return; }
  if (document.readyState !== "complete" || !imagesDone()) { setTimeout(poll, 50); return; }
  if (!hasMath) { done("ok"); return; }
  if (mj && mj.startup && mj.startup.promise) {
    mj.startup.promise.then(() => done("ok"), (e) => done("MathJax failed: " + e));
    return;
  }
  setTimeout(poll, 50);
}
poll();
"""

# Everything the checks need from the rendered page, in one round trip.
INSPECT_PAGE = r"""
const article = document.querySelector("article.bd-article") || document.querySelector("main");
const col = article.getBoundingClientRect();
const inMargin = (el) => el.closest("aside, .margin, .sidebar, .marginnote") !== null;
const visible = (el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const wide = [];
const scrolling = [];
for (const el of article.querySelectorAll("*")) {
  if (inMargin(el) || !visible(el)) continue;
  const r = el.getBoundingClientRect();
  if (r.right > col.right + 1 || r.left < col.left - 1) {
    let clipped = false;
    for (let a = el.parentElement; a && a !== article; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o !== "visible") { clipped = true; break; }
    }
    if (!clipped) wide.push(el.tagName + "." + el.className + " " + Math.round(r.width));
  }
  const o = getComputedStyle(el).overflowX;
  if ((o === "auto" || o === "scroll") && el.scrollWidth > el.clientWidth + 1) {
    const text = (el.textContent || "").trim().slice(0, 70);
    scrolling.push(el.tagName + "." + el.className + ": " + text);
  }
}
const math = Array.from(document.querySelectorAll(".math"));
const untypeset = math
  .filter((el) => el.querySelector("mjx-container") === null)
  .map((el) => el.textContent.slice(0, 60));
const merrors = Array.from(document.querySelectorAll("mjx-merror")).map(
  (el) => el.getAttribute("data-mjx-error") || el.textContent.slice(0, 60));
const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
  acceptNode: (n) =>
    n.parentElement.closest("pre, code, script, style, mjx-container, .math, .sig, textarea")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
});
const rawTex = [];
const texPattern = /\$\$|\\\(|\\\[|\\begin\{|\$[^$\s][^$]*\$/;
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (texPattern.test(n.textContent)) rawTex.push(n.textContent.trim().slice(0, 80));
}
const images = Array.from(document.images).map((img) => ({
  src: img.getAttribute("src"), ok: img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
}));
const links = Array.from(document.querySelectorAll("a[href]")).map((a) => a.href);
const ids = Array.from(document.querySelectorAll("[id]")).map((el) => el.id);
return {wide, scrolling, untypeset, merrors, rawTex, images, links, ids,
        nMath: math.length, title: document.title};
"""


def check_links(page, base, links, ids):
    """Internal links that point to a missing page or anchor."""
    broken = []
    for href in links:
        url, fragment = urldefrag(href)
        if not url.startswith(base):
            continue  # external (launch buttons, the repository): not reachable here
        target = unquote(url[len(base) :]) or "index.html"
        if target.endswith("/"):
            target += "index.html"
        file = HTML / target
        if not file.exists():
            broken.append(f"{href}: no such file")
            continue
        if fragment and target.endswith(".html"):
            known = set(ids) if target == page else anchors(target)
            if unquote(fragment) not in known:
                broken.append(f"{href}: no anchor #{fragment}")
    return broken


PAGES = pages() or ["index.html"]


@pytest.mark.parametrize("page", PAGES)
def test_page_in_chromium(page, server, browser):
    start = time.perf_counter()
    browser.get_log("browser")  # drop messages left over from the previous page
    browser.get(server + page)
    state = browser.execute_async_script(WAIT_FOR_PAGE)
    info = browser.execute_script(INSPECT_PAGE)
    console = [
        entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
    ]
    name = page.removesuffix(".html").replace("/", "__")
    browser.save_screenshot(str(SHOTS / f"{name}.png"))
    seconds = time.perf_counter() - start

    problems = []
    if state != "ok":
        problems.append(f"page did not settle: {state}")
    problems += [f"console error: {m}" for m in console]
    problems += [f"maths not typeset: {m!r}" for m in info["untypeset"]]
    problems += [f"MathJax error: {m!r}" for m in info["merrors"]]
    problems += [f"raw TeX in the text: {m!r}" for m in info["rawTex"]]
    problems += [f"image not loaded: {img['src']}" for img in info["images"] if not img["ok"]]
    problems += [
        f"broken link: {b}" for b in check_links(page, server, info["links"], info["ids"])
    ]
    if not page.startswith(SOURCE_LISTINGS):
        problems += [f"wider than the column: {w}" for w in info["wide"]]
        problems += [f"scrolls sideways: {w}" for w in info["scrolling"]]
    if page in executable_pages():
        stem = page.removesuffix(".html")
        colab = f"colab.research.google.com/github/{REPOSITORY}/blob/main/{stem}.ipynb"
        if not any(colab in href for href in info["links"]):
            problems.append("no Colab launch button for the paired notebook")
        if not any("mybinder.org/v2/gh/" in href for href in info["links"]):
            problems.append("no Binder launch button")
    print(
        f"{page}: {seconds:.1f} s, {info['nMath']} equations, {len(info['images'])} images, "
        f"{len(info['links'])} links"
    )
    assert not problems, f"{page}:\n  " + "\n  ".join(problems)
