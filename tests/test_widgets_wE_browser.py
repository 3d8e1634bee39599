"""DecayExplorer driven in chromium: one pair from aligned to random content, the score drawn as
far as the reader moves r, its bound, the random pairs after the prediction, on one log axis.

The widget is rendered on its own page from its Python class (test_widgets_spectrum_browser.py's
page: the ES module and stylesheet Python ships, no kernel). Every drawn curve is read back
through the drawing's own y map and compared with rope_core.demos.decay.
"""

from __future__ import annotations

import numpy as np
import pytest
from _browser import DESKTOP, PHONE, after_frames, dataset, open_page, set_slider

from rope_core.demos import decay

pytestmark = [pytest.mark.browser]

DRAWN = r"""(root) => {
  const svg = root.querySelector("svg.rope-w-svg");
  const parse = (node) => (node.getAttribute("points") || "").trim().split(/\s+/).filter(Boolean).map((p) => p.split(",").map(Number));
  const series = {};
  for (const node of svg.querySelectorAll("[data-series]")) series[node.dataset.series] = parse(node);
  const ticks = [...svg.querySelectorAll("[data-x-tick]")].map((t) => [Number(t.dataset.xTick), Number(t.getAttribute("x1"))]);
  const yTicks = [...svg.querySelectorAll("line[data-y-tick]")].map((t) => [Number(t.dataset.yTick), Number(t.getAttribute("y1"))]);
  const marks = {};
  for (const node of svg.querySelectorAll("circle[data-mark]")) marks[node.dataset.mark] = [Number(node.getAttribute("cx")), Number(node.getAttribute("cy")), node.getAttribute("visibility")];
  return { series, ticks, yTicks, marks, map: JSON.parse(svg.dataset.yMap),
           crowd: svg.querySelector('[data-group="random"]').getAttribute("visibility") };
}"""


@pytest.fixture(scope="module")
def tables():
    return decay.content_pair_table(), decay.random_pairs_magnitude()


@pytest.fixture
def opened(chromium, decay_site):
    """``opened(theme, viewport, touch)`` -> page; after the test, the page logged no problem."""
    url, _, pages = decay_site
    made = []

    def open_one(theme="light", *, viewport=DESKTOP, touch=False):
        context, page, log = open_page(chromium, theme, viewport=viewport, touch=touch)
        page.goto(f"{url}/{pages[theme]}")
        page.wait_for_function("window.ropeReady === true", timeout=20000)
        after_frames(page)
        made.append((context, log))
        return page

    yield open_one
    for context, log in made:
        problems = log.problems()
        context.close()
        assert not problems, problems


def pixels(values, m):
    """Where the page must draw ``values`` on its log axis, in drawing units."""
    v = np.clip(np.abs(values), m["lo"], m["hi"])
    fraction = (np.log10(v) - np.log10(m["lo"])) / (np.log10(m["hi"]) - np.log10(m["lo"]))
    return m["top"] + (m["bottom"] - m["top"]) * (1 - fraction)


def drawn_on(page):
    return page.locator(".rope-w").first.evaluate(DRAWN)


def predict(page, index):
    page.locator(f'button[data-answer="{index}"]').click()


def concealed(locator):
    return locator.evaluate("(n) => n.closest('[data-concealed]') !== null")


def test_the_y_axis_is_one_labelled_log_scale(opened):
    page = opened()
    drawn = drawn_on(page)
    m = drawn["map"]
    assert m["log"] is True and "log scale" in page.locator('[data-axis="y"]').text_content()
    # Every decade tick sits where the map puts it, one decade the same height everywhere.
    for value, y in drawn["yTicks"]:
        assert abs(y - pixels(np.array([value]), m)[0]) < 1e-6, (value, y)
    heights = np.diff([y for _, y in drawn["yTicks"]])
    np.testing.assert_allclose(heights, heights[0], atol=1e-6)
    assert page.locator('[data-scale-change]').count() == 0


def test_the_curves_drawn_are_rope_cores_at_random_states(opened, decay_site, tables, rng):
    _, widget, _ = decay_site
    pair, crowd = tables
    data = widget.data
    page = opened()
    predict(page, 1)
    page.locator('[data-toggle="random"]').click()
    for _ in range(6):
        b, w, stop = int(rng.integers(len(data["bases"]))), int(rng.integers(len(data["mixes"]))), int(rng.integers(1, len(data["stops"])))
        set_slider(page, "base", b)
        set_slider(page, "content", w)
        set_slider(page, "distance", stop)
        i = data["stops"][stop]
        drawn = drawn_on(page)
        m, s = drawn["map"], drawn["series"]
        (x0, p0), (x1, p1) = drawn["ticks"][0], drawn["ticks"][-1]
        xs = p0 + (p1 - p0) * pair["distances"] / (x1 - x0)
        # The score from r = 0 to the chosen r only; the bound everywhere. Drawn from the numbers
        # the widget was sent (test_widgets_wE.py checks those against rope_core to their rounding),
        # and within a pixel of rope_core's own.
        sent, sent_crowd = data["series"][b]["pair"], data["series"][b]["random"]
        score = np.array(s["pair-score"])
        assert len(score) == i + 1, (len(score), i)
        np.testing.assert_allclose(score[:, 0], xs[: i + 1], atol=0.01)
        np.testing.assert_allclose(score[:, 1], pixels(np.array(sent["score"][w][: i + 1]), m), atol=0.01)
        np.testing.assert_allclose(np.array(s["pair-bound"])[:, 1], pixels(np.array(sent["bound"][w]), m), atol=0.01)
        big = np.abs(pair["score"][w, b, : i + 1]) > 0.01
        np.testing.assert_allclose(score[big, 1], pixels(pair["score"][w, b, : i + 1][big], m), atol=1)
        # The bound is drawn on or above the score at every distance (smaller y is higher).
        assert np.all(np.array(s["pair-bound"])[: i + 1, 1] <= score[:, 1] + 1e-9)
        band = np.array(s["random-band"])
        n = len(xs)
        np.testing.assert_allclose(band[:n, 0], xs, atol=0.01)
        np.testing.assert_allclose(band[:n, 1], pixels(np.array(sent_crowd["high"]), m), atol=0.01)
        np.testing.assert_allclose(band[n:, 1], pixels(np.array(sent_crowd["low"]), m)[::-1], atol=0.01)
        np.testing.assert_allclose(np.array(s["random-median"])[:, 1], pixels(np.array(sent_crowd["median"]), m), atol=0.01)
        assert "random-bound" not in s                     # read out, not drawn over the pair's bound
        np.testing.assert_allclose(np.array(s["random-median"])[:, 1], pixels(crowd["median"][b], m), atol=1)
        # The marks at r and the read-outs: rope_core's numbers.
        for mark, value in (("pair-score", pair["score"][w, b, i]), ("pair-bound", pair["bound"][w, b, i]),
                            ("random-median", crowd["median"][b, i])):
            assert abs(drawn["marks"][mark][0] - xs[i]) < 0.01 and abs(drawn["marks"][mark][1] - pixels(np.array([value]), m)[0]) < 1, mark
        shown = dataset(page.locator('[data-readout="pair"]'))
        assert abs(float(shown["score"]) - pair["score"][w, b, i]) < 5e-4 and abs(float(shown["bound"]) - pair["bound"][w, b, i]) < 5e-3
        shown = dataset(page.locator('[data-readout="random"]'))
        assert abs(float(shown["median"]) - crowd["median"][b, i]) < 5e-4
        assert abs(float(shown["bound"]) - crowd["bound"][b, i]) < 5e-3
        assert int(dataset(page.locator('[data-readout="distance"]'))["value"]) == int(pair["distances"][i])


def test_ask_first_then_the_hand_finds_that_a_random_key_does_not_fall(opened, decay_site, tables):
    _, widget, _ = decay_site
    pair, crowd = tables
    data = widget.data
    page = opened()
    # Default: the aligned pair at r = 0; the score is one dot, the random pairs are not offered.
    assert page.locator('input[data-name="content"]').input_value() == "0"
    assert page.locator('input[data-name="distance"]').input_value() == "0"
    assert len(drawn_on(page)["series"]["pair-score"]) == 1
    toggle = page.locator('[data-toggle="random"]')
    assert concealed(toggle)
    # At r = 0 every base has the same bound, and the line under the plot says so.
    assert "at every base" in page.locator('[data-readout="family"]').inner_text()
    title = page.locator(".rope-w-title").inner_text()
    assert "fall" not in title and "decay" not in title.lower()
    # Before the prediction a random key's score is hidden; the aligned one's is not.
    set_slider(page, "content", len(data["mixes"]) - 1)
    assert concealed(page.locator('[data-series="pair-score"]'))
    assert concealed(page.locator('[data-readout="pair"]'))
    set_slider(page, "content", 0)
    assert not concealed(page.locator('[data-series="pair-score"]'))
    predict(page, 0)                                   # "yes, it falls with its bound"
    feedback = page.locator('[data-readout="feedback"]')
    assert feedback.get_attribute("data-stage") == "predicted"
    assert not concealed(toggle)
    # The hand: random key, then r past half the axis by dragging along the plot.
    set_slider(page, "content", len(data["mixes"]) - 1)
    assert not concealed(page.locator('[data-series="pair-score"]'))
    assert feedback.get_attribute("data-stage") == "predicted"
    scrub = page.locator("rect[data-scrub]")
    box = scrub.bounding_box()
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for f in (0.25, 0.5, 0.75):
        page.mouse.move(box["x"] + f * box["width"], box["y"] + box["height"] / 2)
    page.mouse.up()
    r = int(dataset(page.locator('[data-readout="distance"]'))["value"])
    assert r >= 700, r
    assert feedback.get_attribute("data-stage") == "revealed" and feedback.get_attribute("data-correct") == "false"
    b = int(page.locator('input[data-name="base"]').input_value())
    text = feedback.inner_text()
    for value in (pair["early"][-1, b], pair["late"][-1, b]):
        assert f"{value:.3g}"[:4] in text.replace("−", "-"), (value, text)
    # The random pairs' medians are quoted once the reader has shown them, not before.
    assert f"{crowd['median'][b, -1]:.3g}"[:4] not in text.replace("−", "-"), text
    toggle.click()
    text = feedback.inner_text()
    for value in (crowd["median"][b, 0], crowd["median"][b, -1]):
        assert f"{value:.3g}"[:4] in text.replace("−", "-"), (value, text)
    toggle.click()
    page.get_by_role("button", name="no, it does not fall").click()
    assert feedback.get_attribute("data-correct") == "true"
    # The random pairs: toggled on and off, named, their state heard.
    assert page.locator('[data-group="random"]').get_attribute("visibility") == "hidden"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.locator('[data-group="random"]').get_attribute("visibility") == "visible"
    assert page.locator('[data-readout="random"]').is_visible()
    page.wait_for_timeout(900)
    heard = page.locator('[data-readout="announce"]').inner_text()
    assert "random pairs" in heard and f"{crowd['median'][b, 0]:.3f}"[:5] in heard, heard
    toggle.click()
    assert page.locator('[data-group="random"]').get_attribute("visibility") == "hidden"
    assert not page.locator('[data-readout="random"]').is_visible()


def test_controls_are_named_by_their_visible_text_and_heard_once(opened):
    page = opened()
    for name, label in (("content", "key k"), ("distance", "distance r"), ("base", "base")):
        control = page.locator(f'input[data-name="{name}"]')
        assert control.get_attribute("aria-label") == label
        assert page.locator(f'label[for="{control.get_attribute("id")}"]').inner_text() == label
    # The slider says its value; the output beside it is for the eye only.
    set_slider(page, "content", 2)
    assert page.locator('input[data-name="content"]').get_attribute("aria-valuetext") == "50 % random"
    assert page.locator('output[data-name="content"]').get_attribute("aria-hidden") == "true"
    predict(page, 1)
    toggle = page.locator('[data-toggle="random"]')
    assert toggle.inner_text().startswith("show ")
    assert page.locator('[role="status"][aria-live="polite"]').count() == 1
    # The result is announced after a move.
    set_slider(page, "distance", 5, keyboard=True)
    page.wait_for_timeout(900)
    heard = page.locator('[data-readout="announce"]').inner_text()
    assert heard.startswith("r = 80, 50 % random key: score"), heard


def test_labels_stay_off_the_marks_at_every_distance(opened, decay_site):
    # The gap's label never covers the score's or the bound's dot, nor the bound's line.
    _, widget, _ = decay_site
    page = opened()
    predict(page, 1)
    for stop in range(0, len(widget.data["stops"]), 4):
        set_slider(page, "distance", stop)
        label = page.locator('[data-mark="gap-label"]').bounding_box()
        for mark in ("pair-score", "pair-bound"):
            dot = page.locator(f'[data-mark="{mark}"]').bounding_box()
            overlap = not (label["x"] > dot["x"] + dot["width"] or dot["x"] > label["x"] + label["width"]
                           or label["y"] > dot["y"] + dot["height"] or dot["y"] > label["y"] + label["height"])
            assert not overlap, (stop, mark, label, dot)
        # ... nor the pair's bound line: every point of it under the label's width lies above
        # or below the label (drawing units).
        box = page.locator('[data-mark="gap-label"]').evaluate("(t) => { const b = t.getBBox(); return [b.x, b.y, b.width, b.height]; }")
        under = [y for x, y in drawn_on(page)["series"]["pair-bound"] if box[0] <= x <= box[0] + box[2]]
        assert under and all(y < box[1] or y > box[1] + box[3] for y in under), (stop, box)


def test_on_a_phone_the_plot_and_the_distance_slider_share_one_screen(opened):
    page = opened("dark", viewport=PHONE, touch=True)
    svg = page.locator("svg.rope-w-svg").first
    svg.evaluate("(s) => s.scrollIntoView({block: 'start', behavior: 'instant'})")
    after_frames(page)
    plot, control = svg.bounding_box(), page.locator('input[data-name="distance"]').bounding_box()
    height = PHONE["height"]
    assert plot["y"] >= -1 and plot["y"] + plot["height"] <= height, plot
    assert 0 <= control["y"] and control["y"] + control["height"] <= height, control
    assert plot["x"] >= 0 and plot["x"] + plot["width"] <= PHONE["width"] + 1
    # A tap on the plot picks a distance.
    box = page.locator("rect[data-scrub]").bounding_box()
    page.touchscreen.tap(box["x"] + 0.5 * box["width"], box["y"] + box["height"] / 2)
    assert int(dataset(page.locator('[data-readout="distance"]'))["value"]) in range(496, 529)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious_before_and_after_the_hand(opened, theme):
    from _browser import axe_serious

    page = opened(theme)
    assert axe_serious(page, include=[".rope-w"]) == []
    predict(page, 1)
    set_slider(page, "content", 4)
    set_slider(page, "distance", 40)
    page.locator('[data-toggle="random"]').click()
    assert axe_serious(page, include=[".rope-w"]) == []
