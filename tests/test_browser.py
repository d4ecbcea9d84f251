"""The built book as a reader sees it: every page of ``_build/html`` in headless Chromium.

``make browser`` (part of ``make test``, after the book is built) runs this module with
``PRML14_BROWSER=1``; elsewhere it is skipped. A thread serves ``_build/html`` on 127.0.0.1;
Debian's ``chromium`` driven through Debian's ``chromium-driver`` (selenium, no browser
download) loads every page with all other hosts unreachable. The book is read offline: MathJax
3 and every other script, style sheet and font come from the book itself (``make book`` copies
MathJax into ``_vendor/_static/mathjax``, which the build puts in ``_static/mathjax``), and the
test fails on any request that leaves 127.0.0.1. Per page it checks

* no request to any other host (Chromium's network log: scripts, style sheets, fonts, images);
* no JavaScript console errors;
* every equation typeset: each ``.math`` element holds a MathJax container, no MathJax error
  node, and no raw TeX (``$$``, ``\\(``, ``\\[``, ``$...$``, ``\\begin{``) left in the text
  (code and Python signatures aside);
* every image loaded, with a non-zero natural size;
* nothing wider than the content column (outside the margin notes), and nothing in it that
  scrolls sideways;
* every internal link, ``eq-14-NN`` / ``eq-b-NN`` references included, points to an existing
  page and anchor;
* the launch buttons (Binder, Colab on the paired notebook) on every executable page;
* every driven figure (:func:`prml14.plotting.driven_figure`): its slider, set to another state
  with an ``input`` event, shows that state's frame and label;

and saves a screenshot of the top of each page under ``_build/screenshots/`` (and of each driven
figure at two slider positions). Every page is loaded a second time with the reader's system in
dark mode (the theme follows it from "auto"): the theme must switch, every equation and every
text must stand out from its background (contrast ratio), and every figure must sit on a light,
opaque card.
"""

from __future__ import annotations

import functools
import http.server
import json
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


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves _build/html as it is: the book must not need anything else."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(HTML), **kwargs)

    def do_GET(self):
        if urlparse(self.path).path == "/favicon.ico":  # asked for by the browser, not a page
            self.send_response(200)
            self.send_header("Content-Type", "image/x-icon")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    if not (HTML / "index.html").exists():
        pytest.fail("no built book in _build/html: run `make book-check` (or `make browser`)")
    if not (HTML / "_static" / "mathjax" / "tex-mml-chtml.js").exists():
        pytest.fail("no MathJax in the built book: `make book` copies it (see the Makefile)")
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
    # the performance log carries the DevTools network events: every request the page makes
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
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


def outside_requests(driver):
    """The network requests since the last call to any host but 127.0.0.1."""
    outside = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] != "Network.requestWillBeSent":
            continue
        url = message["params"]["request"]["url"]
        parts = urlparse(url)
        if parts.scheme not in ("http", "https", "ws", "wss", "ftp"):
            continue  # data: URIs of the figures, the browser's own chrome:// pages
        if parts.hostname != "127.0.0.1":
            outside.append(url)
    return outside


def load(driver, url):
    """Open one page and wait until it has settled; returns the wait's verdict ("ok")."""
    driver.get_log("browser")  # drop messages left over from the previous page
    driver.get_log("performance")
    driver.get(url)
    return driver.execute_async_script(WAIT_FOR_PAGE)


def driven_pages():
    """Book pages that carry a driven figure (prml14.plotting.driven_figure)."""
    return [
        p
        for p in pages()
        if p.startswith("book/") and 'class="prml14-driven"' in (HTML / p).read_text("utf-8")
    ]


# Moves one driven figure's slider to another state (half-way round from where it is) with the
# reader's event, and reports what is shown before and after.
DRIVE_SLIDER = """
const [id, done] = [arguments[0], arguments[arguments.length - 1]];
const root = document.getElementById(id);
const data = JSON.parse(root.querySelector(".prml14-driven-data").textContent);
const img = root.querySelector(".prml14-driven-frame");
const slider = root.querySelector(".prml14-driven-slider");
const label = root.querySelector(".prml14-driven-label");
const n = data.frames.length;
const start = Number(slider.value);
const before = {src: img.getAttribute("src"), label: label.textContent};
const target = (start + Math.max(1, Math.floor(n / 2))) % n;
slider.value = String(target);
slider.dispatchEvent(new Event("input", {bubbles: true}));
img.decode().then(() => true, () => false).then((decoded) => done({
  n, start, target, labels: data.labels,
  startShown: before.src === data.frames[start] && before.label === data.labels[start],
  frameShown: img.getAttribute("src") === data.frames[target],
  labelShown: label.textContent === data.labels[target],
  changed: img.getAttribute("src") !== before.src && label.textContent !== before.label,
  decoded: decoded && img.naturalWidth > 0,
}));
"""

# Dark mode: the theme's mode, and the contrast of every text and equation with what is behind
# it (WCAG's ratio of relative luminances), and whether each figure sits on a light card.
INSPECT_DARK = r"""
const article = document.querySelector("article.bd-article") || document.querySelector("main");
const parse = (c) => {
  const m = c.match(/rgba?\(([^)]+)\)/);
  if (!m) return [0, 0, 0, 0];
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = ([r, g, b, a], under) => [r * a + under[0] * (1 - a), g * a + under[1] * (1 - a),
                                       b * a + under[2] * (1 - a)];
function background(el) {
  const layers = [];
  for (let a = el; a; a = a.parentElement) {
    const c = parse(getComputedStyle(a).backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let rgb = [255, 255, 255];
  for (let i = layers.length - 1; i >= 0; i--) rgb = over(layers[i], rgb);
  return rgb;
}
const lum = (rgb) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]);
};
const contrast = (el) => {
  const bg = background(el);
  const fg = over(parse(getComputedStyle(el).color), bg);
  const [x, y] = [lum(fg) + 0.05, lum(bg) + 0.05];
  return Math.max(x, y) / Math.min(x, y);
};
const visible = (el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
};
const lowMath = Array.from(article.querySelectorAll("mjx-container")).filter(visible)
  .map((el) => [contrast(el), el.textContent.slice(0, 40)]).filter(([c]) => c < 4.5);
const seen = new Set();
const lowText = [];
const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
  acceptNode: (n) => !n.textContent.trim() ||
    n.parentElement.closest("mjx-container, script, style, svg") ? NodeFilter.FILTER_REJECT
                                                                 : NodeFilter.FILTER_ACCEPT,
});
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const el = n.parentElement;
  if (seen.has(el) || !visible(el)) continue;
  seen.add(el);
  const c = contrast(el);
  const text = n.textContent.trim().slice(0, 40);
  if (c < 3) lowText.push([c, el.tagName + "." + el.className + ": " + text]);
}
const darkFigures = [];
for (const img of article.querySelectorAll("img")) {
  if (!(img.complete && img.naturalWidth > 0) || !visible(img)) continue;
  let corner = [0, 0, 0, 0];
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0, 1, 1, 0, 0, 1, 1);
    corner = Array.from(ctx.getImageData(0, 0, 1, 1).data);
  } catch (e) { /* unreadable: judge by the card alone */ }
  const drawnLight = corner[3] === 255 && lum(corner) > 0.7;
  const cardLight = lum(background(img)) > 0.7;
  if (!drawnLight && !cardLight) darkFigures.push(img.getAttribute("src").slice(0, 60));
}
return {theme: document.documentElement.dataset.theme, lowMath, lowText, darkFigures};
"""


PAGES = pages() or ["index.html"]


@pytest.mark.parametrize("page", PAGES)
def test_page_in_chromium(page, server, browser):
    start = time.perf_counter()
    state = load(browser, server + page)
    info = browser.execute_script(INSPECT_PAGE)
    outside = outside_requests(browser)
    console = [
        entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
    ]
    name = page.removesuffix(".html").replace("/", "__")
    browser.save_screenshot(str(SHOTS / f"{name}.png"))
    seconds = time.perf_counter() - start

    problems = []
    if state != "ok":
        problems.append(f"page did not settle: {state}")
    problems += [f"request leaving 127.0.0.1: {url}" for url in outside]
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


def test_at_least_six_pages_carry_a_driven_figure():
    assert len(driven_pages()) >= 6, driven_pages()


@pytest.mark.parametrize("page", driven_pages() or ["index.html"])
def test_driven_figures_follow_their_slider(page, server, browser):
    assert load(browser, server + page) == "ok"
    from selenium.webdriver.common.by import By

    figures = browser.find_elements(By.CSS_SELECTOR, ".prml14-driven")
    assert figures, f"{page}: no driven figure"
    name = page.removesuffix(".html").replace("/", "__")
    problems = []
    for index, figure in enumerate(figures):
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", figure)
        figure.screenshot(str(SHOTS / f"{name}__driven{index}__a.png"))
        result = browser.execute_async_script(DRIVE_SLIDER, figure.get_attribute("id"))
        figure.screenshot(str(SHOTS / f"{name}__driven{index}__b.png"))
        what = f"figure {index} ({result['labels'][result['start']]} -> " + (
            f"{result['labels'][result['target']]})"
        )
        if result["n"] < 2:
            problems.append(f"{what}: a slider over fewer than two states")
        for key, meaning in [
            ("startShown", "does not show its starting state's frame and label"),
            ("frameShown", "shows another frame than the chosen state's"),
            ("labelShown", "shows another label than the chosen state's"),
            ("changed", "did not change what it shows"),
            ("decoded", "shows a frame that does not decode"),
        ]:
            if not result[key]:
                problems.append(f"{what}: {meaning}")
    problems += [f"request leaving 127.0.0.1: {url}" for url in outside_requests(browser)]
    print(f"{page}: {len(figures)} driven figure(s)")
    assert not problems, f"{page}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("page", PAGES)
def test_page_in_dark_mode(page, server, browser):
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    try:
        state = load(browser, server + page)
        info = browser.execute_script(INSPECT_DARK)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    name = page.removesuffix(".html").replace("/", "__")
    browser.save_screenshot(str(SHOTS / f"{name}__dark.png"))
    problems = [] if state == "ok" else [f"page did not settle: {state}"]
    if info["theme"] != "dark":
        problems.append(f"the theme did not follow the dark system setting: {info['theme']!r}")
    problems += [f"equation hard to see (contrast {c:.1f}): {t!r}" for c, t in info["lowMath"]]
    problems += [f"text hard to read (contrast {c:.1f}): {t!r}" for c, t in info["lowText"]]
    problems += [f"figure not on a light card: {src}" for src in info["darkFigures"]]
    problems += [f"request leaving 127.0.0.1: {url}" for url in outside_requests(browser)]
    assert not problems, f"{page} (dark):\n  " + "\n  ".join(problems)
