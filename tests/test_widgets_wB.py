"""FrequencyClocks, RotationMatrixHeatmap, DecayExplorer and LayoutExplorer: what each lets the
reader's hand find, driven in chromium.

Each widget is rendered on its own page from its Python class, as the book's static loader
renders it (the ES module and stylesheet Python ships, a model holding the state, no kernel;
the page is test_widgets_spectrum_browser.py's). Every check reads the numbers the widget draws
and compares them with rope_core.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from _browser import DESKTOP, after_frames, dataset, open_page, serve, set_slider
from test_widgets_spectrum_browser import write_page

from rope_core import widgets as W

pytestmark = [pytest.mark.browser]
TAU = 2 * math.pi
NAMES = ["FrequencyClocks", "RotationMatrixHeatmap", "DecayExplorer", "LayoutExplorer"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("wB")
    widgets = {name: getattr(W, name)() for name in NAMES}
    pages = {name: write_page(directory, widget, "light") for name, widget in widgets.items()}
    with serve(directory) as url:
        yield url, widgets, pages


@pytest.fixture
def opened(chromium, site):
    """``opened(name)`` -> (page, widget); after the test, the page logged no problem."""
    url, widgets, pages = site
    made = []

    def open_one(name, *, viewport=DESKTOP, reduced_motion=None):
        context, page, log = open_page(chromium, "light", viewport=viewport)
        if reduced_motion:
            page.emulate_media(reduced_motion=reduced_motion)
        page.goto(f"{url}/{pages[name]}")
        page.wait_for_function("window.ropeReady === true", timeout=20000)
        after_frames(page)
        made.append((context, log))
        return page, widgets[name]

    yield open_one
    for context, log in made:
        problems = log.problems()
        context.close()
        assert not problems, problems


def position(page):
    return int(page.locator('output[data-name="position"]').inner_text())


def playing(page):
    return page.locator('button[data-name="play"]').get_attribute("aria-pressed") == "true"


# --- FrequencyClocks ---------------------------------------------------------------------

CLOCK_FRAME = """() => {
  const svg = document.querySelector('.rope-w-svg');
  return {
    handsAt: Number(svg.dataset.handsAt),
    shown: Number(document.querySelector('output[data-name="position"]').textContent),
    drawn: [...svg.querySelectorAll('g[data-pair]')].map((g) => Number(g.dataset.drawnAngle)),
    swept: [...svg.querySelectorAll('[data-sweep]')].map((p) => Number(p.dataset.swept)),
    sweepPath: [...svg.querySelectorAll('[data-sweep]')].map((p) => p.getAttribute('d')),
  };
}"""


def clock_frames(page, count):
    """``count`` successive animation frames of the clocks, read each at its frame."""
    return page.evaluate("""([count, read]) => new Promise((done) => {
      const frames = [], reader = eval(read);
      const next = () => { frames.push(reader()); if (frames.length < count) requestAnimationFrame(next); else done(frames); };
      requestAnimationFrame(next);
    })""", [count, CLOCK_FRAME])


def test_clock_hands_turn_smoothly_between_tokens_in_the_time_lapse(opened):
    page, widget = opened("FrequencyClocks")
    theta = widget.data["tables"][0][2]["theta"]          # d = 8, base 10^4: the opening head
    page.locator('button[data-name="play"]').click()
    frames = clock_frames(page, 40)
    page.locator('button[data-name="play"]').click()      # pause
    moving = [f for f in frames if f["handsAt"] != f["shown"]]
    # The hands stand between tokens: an unrounded m within the whole m the numbers say.
    assert len(moving) >= 10, frames
    for frame in moving:
        assert frame["shown"] <= frame["handsAt"] < frame["shown"] + 1
        for angle, th in zip(frame["drawn"], theta, strict=True):
            expected = (frame["handsAt"] * th) % TAU
            assert min(abs(angle - expected), TAU - abs(angle - expected)) < 1e-9
    # Within one token the fastest hand (1 rad a token) moves on: it turns, not jumps.
    same_token = [(a, b) for a, b in zip(frames, frames[1:]) if a["shown"] == b["shown"] and b["handsAt"] > a["handsAt"]]
    assert same_token and any(a["drawn"][0] != b["drawn"][0] for a, b in same_token)
    # The wedge under each hand is the angle it swept since the last frame: (Δm)·θᵢ.
    for a, b in zip(frames, frames[1:]):
        if b["handsAt"] > a["handsAt"]:
            for swept, th in zip(b["swept"], theta, strict=True):
                assert swept == pytest.approx((b["handsAt"] - a["handsAt"]) * th, rel=1e-9, abs=1e-12)
    # Paused: the hands stand at the whole m shown, the wedges are gone.
    after_frames(page)
    still = page.evaluate(CLOCK_FRAME)
    assert still["handsAt"] == still["shown"] == position(page)
    assert all(path == "" for path in still["sweepPath"])
    for group, th in zip(page.locator("g[data-pair]").all(), theta, strict=True):
        info = dataset(group)
        assert float(info["drawnAngle"]) == pytest.approx(float(info["angle"]))
        assert float(info["angle"]) == pytest.approx((still["shown"] * th) % TAU, abs=1e-9)


def test_clock_time_lapse_halts_on_L_then_runs_on(opened):
    # Chapter 5 states it; this test checks it.
    chapter = " ".join((Path(__file__).parents[1] / "book" / "05-d-dimensions.md").read_text().split())
    assert "press the time-lapse, which runs $m$ on a logarithmic clock and halts at $m = L$." in chapter
    page, widget = opened("FrequencyClocks")
    positions = widget.data["positions"]
    for L in (256, 64):
        set_slider(page.locator(".rope-w"), "context", widget.data["contexts"].index(L))
        set_slider(page.locator(".rope-w"), "position", positions.index(10))
        page.locator('button[data-name="play"]').click()
        page.wait_for_function("document.querySelector('button[data-name=\"play\"]').getAttribute('aria-pressed') === 'false'", timeout=20000)
        # It stopped at m = L exactly: the frame the question names.
        assert position(page) == L
        assert int(float(page.locator(".rope-w-svg").get_attribute("data-hands-at"))) == L
    # ▶ again runs on past L.
    page.locator('button[data-name="play"]').click()
    page.wait_for_function("Number(document.querySelector('output[data-name=\"position\"]').textContent) > 80", timeout=20000)
    page.locator('button[data-name="play"]').click()
    assert position(page) > 64


def test_clock_fast_hand_blurs_slow_hand_barely_moves_late_in_the_time_lapse(opened):
    page, widget = opened("FrequencyClocks")
    positions = widget.data["positions"]
    set_slider(page.locator(".rope-w"), "context", len(widget.data["contexts"]) - 1)   # L = 4096
    set_slider(page.locator(".rope-w"), "position", positions.index(256))
    page.locator('button[data-name="play"]').click()
    page.wait_for_function("Number(document.querySelector('output[data-name=\"position\"]').textContent) > 1000", timeout=20000)
    frames = clock_frames(page, 6)
    page.locator('button[data-name="play"]').click()
    late = [f for f in frames if f["swept"][0] > 0]
    assert late
    for frame in late:
        # Above 1000 tokens/s the fastest hand (1 rad a token) turns over a full turn a frame:
        # its wedge is the whole face; the slowest (0.001 rad a token) sweeps a sliver.
        assert frame["swept"][0] >= TAU and frame["sweepPath"][0].count(" A ") == 2
        assert 0 < frame["swept"][-1] < 0.5
