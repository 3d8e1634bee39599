"""Each widget asks before it tells: its question's answer is out of sight until the reader has
predicted it, and shows once the reader's own hand has done what the question asks.

Opens the built gallery in Debian's chromium (no kernel). For every widget of the registry it
reads the default frame (nothing that answers the question shown or announced), makes a
prediction, checks the answer still waits for the act, then drives the act with the mouse, a
slider or the widget's buttons and checks the verdict and what was hidden. It also checks what a
screen reader hears: no slider value said twice (no live <output>), and the result announced
once the reader pauses; and that no label is drawn under a drag handle in random states.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _browser import HIDDEN, dataset, gallery_widget, open_gallery, set_slider

from rope_core import widgets as W
from rope_core.demos.candidates import candidate_table

pytestmark = [pytest.mark.book, pytest.mark.browser]



@pytest.fixture
def widget(gallery_once):
    """``widget(name)`` -> (page, the widget's root); after the test, the page logged no problem."""
    page, log = gallery_once
    yield lambda name: (page, gallery_widget(page, name))
    assert not log.problems(), log.problems()


def stage(root):
    return root.locator('[data-readout="feedback"]').first.get_attribute("data-stage")


def predict(root, index):
    root.locator(f'.rope-w-question button[data-answer="{index}"]').click()


def concealed(root):
    return root.locator("[data-concealed]").count()


def asked_then_predicted(root, index):
    """The default frame: the question asked, nothing answered, something hidden; then the
    prediction: still no verdict, the hidden parts in sight."""
    feedback = root.locator('[data-readout="feedback"]')
    assert stage(root) == "asked" and feedback.inner_text() == ""
    hidden = root.locator("[data-concealed]")
    assert hidden.count() >= 1
    assert all(hidden.nth(i).evaluate(HIDDEN) for i in range(hidden.count()))
    predict(root, index)
    assert stage(root) == "predicted" and feedback.get_attribute("data-correct") is None
    assert "Now find out" in feedback.inner_text()
    assert concealed(root) == 0


def revealed(root, correct=True):
    feedback = root.locator('[data-readout="feedback"]')
    assert stage(root) == "revealed", feedback.inner_text()
    assert feedback.get_attribute("data-correct") == ("true" if correct else "false")
    return feedback.inner_text()


def predict_then_act(root, index, act, *, before=()):
    """Predict answer ``index``; do each of ``before`` (moves that must not answer yet: the
    verdict still waits); then ``act``, which answers. Returns the verdict's text."""
    predict(root, index)
    assert stage(root) == "predicted"
    for move in before:
        move()
        assert stage(root) == "predicted"
    act()
    return revealed(root)


def test_relative_invariance_asks_which_move_changes_the_score(widget):
    page, root = widget("RelativeInvariance")
    title = root.locator(".rope-w-title").inner_text()
    assert "does not move" not in title and "?" in title
    asked_then_predicted(root, 1)
    for shift in (0, 5, 12):
        set_slider(root, "shift", shift)
    assert stage(root) == "predicted"          # Δ alone does not answer which one moves it
    m = int(root.locator('input[data-name="m"]').input_value())
    set_slider(root, "m", m + 3)
    text = revealed(root)
    assert root.locator('[data-readout="score"]').get_attribute("data-value") is not None
    assert "n − m" in text


def drag_around(page, handle, centre, turns, start_deg):
    """Drag a handle about `centre` by `turns` counter-clockwise, 10° at a time."""
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    radius = math.hypot(box["x"] + box["width"] / 2 - centre[0], box["y"] + box["height"] / 2 - centre[1])
    for k in range(1, int(36 * turns) + 1):
        a = math.radians(start_deg + 10 * k)
        page.mouse.move(centre[0] + radius * math.cos(a), centre[1] - radius * math.sin(a))
    page.mouse.up()


def test_rotation_explorer_the_rotated_arrow_is_dragged_to_the_return(widget):
    page, root = widget("RotationExplorer")
    w = W.RotationExplorer()
    theta, first = w.data["thetas"][w.theta_index], w.data["first_return"][w.theta_index]
    asked_then_predicted(root, 1)
    handle = root.locator('[data-handle="position"]')
    m0 = int(handle.get_attribute("aria-valuenow"))
    svg = root.locator("svg.rope-w-svg").first.bounding_box()
    centre = (svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2)
    start = math.degrees(float(dataset(root.locator('[data-readout="angle"]'))["value"])) + w.q_angle
    # Enough turns to pass the first return: (first − m0) θ radians, and a little more.
    turns = ((first - m0) * theta) / (2 * math.pi) + 0.1
    drag_around(page, handle, centre, turns, start)
    m = int(handle.get_attribute("aria-valuenow"))
    assert m >= first and int(root.locator('input[data-name="position"]').input_value()) == m
    # The arrow snapped to a whole position: its drawn angle is m θ past q.
    assert abs(float(dataset(root.locator('[data-readout="angle"]'))["value"]) - m * theta) < 1e-5
    revealed(root)


def test_candidate_explorer_shows_every_candidate_and_asks_for_a_set(widget):
    page, root = widget("CandidateExplorer")
    names = W.CandidateExplorer().data["names"]
    minis = root.locator(".rope-w-question button[data-answer]")
    assert minis.count() == len(names)                       # every candidate at once
    assert all(minis.nth(c).locator("rect").count() == 16 * 16 for c in range(len(names)))
    verdicts = root.locator("[data-verdict]")
    hidden = lambda: [verdicts.nth(c).evaluate(HIDDEN) for c in range(len(names))]  # noqa: E731
    assert all(hidden()) and root.locator('[data-readout="verdict"]').evaluate(HIDDEN)
    # Pointing at a small matrix draws it large; picking toggles it and answers nothing yet.
    minis.nth(names.index("quadratic")).hover()
    assert root.locator('.rope-w-mini[data-shown]').get_attribute("data-candidate") == str(names.index("quadratic"))
    for name in ("rotation", "no position"):
        minis.nth(names.index(name)).click()
    assert stage(root) == "asked" and all(hidden())
    root.locator("[data-commit]").click()
    text = revealed(root, correct=False)                     # parity was left out
    assert "You left out “parity”" in text and not any(hidden())
    spreads = [float(verdicts.nth(c).get_attribute("data-spread")) for c in range(len(names))]
    t = candidate_table()
    assert spreads == pytest.approx([t[name]["real_spread"].max() for name in names], abs=1e-9)
    # Once checked, a toggle shows its candidate and leaves the prediction as it was.
    minis.nth(names.index("parity")).focus()
    page.keyboard.press("Space")
    assert minis.nth(names.index("parity")).get_attribute("aria-pressed") == "false"
    assert "✗" in revealed(root, correct=False)
    # By keyboard: "change my prediction", Space on parity's toggle, check: now right.
    commit = root.locator("[data-commit]")
    commit.focus()
    page.keyboard.press("Enter")
    assert commit.inner_text() == "check my prediction"
    minis.nth(names.index("parity")).focus()
    page.keyboard.press("Space")
    assert minis.nth(names.index("parity")).get_attribute("aria-pressed") == "true"
    commit.focus()
    page.keyboard.press("Enter")
    assert "✓" in revealed(root) and commit.inner_text() == "change my prediction"


def test_heatmap_reveals_at_the_questions_position(widget):
    page, root = widget("RotationMatrixHeatmap")
    title = root.locator(".rope-w-title").inner_text()
    assert "barely" not in title and "spin" not in title
    asked = W.RotationMatrixHeatmap().data["positions"].index(32)
    text = predict_then_act(root, 1, lambda: set_slider(root, "position", asked),
                            before=[lambda: set_slider(root, "position", asked - 1)])
    assert "turned by less than 0.1 rad" in text
    assert dataset(root.locator('[data-readout="question"]'))["answered"] == "1"


def test_clocks_hide_the_dashes_until_predicted_and_land_on_L(widget):
    page, root = widget("FrequencyClocks")
    # Before: no dashed face, no L line, no count.
    assert root.locator('g[data-pair] circle.rope-w-meaning[stroke-dasharray="4 3"]').count() == 0
    assert root.locator('[data-line="context"]').evaluate(HIDDEN)
    assert root.locator('[data-readout="summary"]').evaluate(HIDDEN)
    asked_then_predicted(root, 1)
    assert root.locator('g[data-pair] circle.rope-w-meaning[stroke-dasharray="4 3"]').count() == 2
    # The slider lands on m = L = 256 exactly.
    positions = W.FrequencyClocks().data["positions"]
    set_slider(root, "position", positions.index(256) - 1)
    assert stage(root) == "predicted"
    set_slider(root, "position", positions.index(256))
    assert root.locator('output[data-name="position"]').inner_text() == "256"
    assert "2 of 4 hands" in revealed(root)


def test_clock_hand_is_grabbed_to_set_m(widget):
    page, root = widget("FrequencyClocks")
    set_slider(root, "position", 10)
    grip = root.locator('[data-grip="1"]')          # θ₁ = 0.1 rad a token: 36° is 6 tokens
    box = grip.bounding_box()
    face = root.locator('g[data-pair="1"] circle.rope-w-meaning').bounding_box()
    centre = (face["x"] + face["width"] / 2, face["y"] + face["height"] / 2)
    start = math.degrees(math.atan2(-(box["y"] + box["height"] / 2 - centre[1]), box["x"] + box["width"] / 2 - centre[0]))
    drag_around(page, grip, centre, 0.1, start)     # 36° counter-clockwise
    m = int(root.locator('output[data-name="position"]').inner_text())
    assert abs(m - (10 + round(math.radians(36) / 0.1))) <= 1, m


def test_layout_reveals_once_the_wrong_layout_is_on(widget):
    page, root = widget("LayoutExplorer")
    text = predict_then_act(root, 2, lambda: root.locator('input[data-name="wrong"]').check())
    assert "no longer looks one token back" in text
    root.locator('input[data-name="wrong"]').uncheck()


def test_decay_hides_the_random_key_and_pairs_until_predicted(widget):
    page, root = widget("DecayExplorer")
    toggle = root.locator('[data-toggle="random"]')
    assert toggle.evaluate(HIDDEN)
    set_slider(root, "content", int(root.locator('input[data-name="content"]').get_attribute("max")))
    assert root.locator('[data-series="pair-score"]').evaluate(HIDDEN)
    asked_then_predicted(root, 1)
    assert not toggle.evaluate(HIDDEN) and not root.locator('[data-series="pair-score"]').evaluate(HIDDEN)
    last = int(root.locator('input[data-name="distance"]').get_attribute("max"))
    set_slider(root, "distance", last)
    revealed(root)
    set_slider(root, "content", 0)


def test_decay_gives_the_bound_at_every_base_as_one_line_that_follows_r(widget):
    page, root = widget("DecayExplorer")
    data = W.DecayExplorer().data
    assert root.locator(".rope-w-multiple").count() == 0            # one chart, not a panel a base
    line = root.locator('[data-series="bound-by-base"]')
    assert len(line.get_attribute("points").split()) == len(data["bases"])
    base = root.locator('input[data-name="base"]').input_value()
    before = line.get_attribute("points")
    set_slider(root, "distance", 3)
    assert line.get_attribute("points") != before
    # The chosen base is ringed; a press on another base's dot picks that base.
    root.locator('[data-pick-base="0"]').click()
    assert root.locator('input[data-name="base"]').input_value() == "0"
    ring = root.locator('[data-pick-base="0"] circle.rope-w-outline')
    assert ring.get_attribute("visibility") == "visible"
    set_slider(root, "base", int(base))


def test_context_extension_step_one_waits_for_a_prediction(widget):
    page, root = widget("ContextExtension")
    title = root.locator('[data-readout="title"]').inner_text()
    assert "never saw" not in title and "?" in title
    question = root.locator('[data-readout="question"]')
    answer = root.locator('[data-readout="dials"]')
    assert answer.evaluate(HIDDEN)
    data = W.ContextExtension().data
    past = next(i for i, p in enumerate(W.ContextExtension().positions) if p > data["training_length"])
    set_slider(root, "position", past)
    assert dataset(question)["answered"] == "0" and not question.inner_text().startswith("Answer")
    root.locator('.rope-w-answers button[data-answer="2"]').click()
    assert dataset(question)["answered"] == "1" and dataset(question)["correct"] == "true"
    assert not answer.evaluate(HIDDEN)


def test_context_p_moves_in_small_steps_and_play_sweeps_the_hands_past_their_arcs(widget):
    page, root = widget("ContextExtension")
    data = W.ContextExtension().data
    positions, L = W.ContextExtension().positions, data["training_length"]
    assert len(positions) > 400 and positions[W.ContextExtension().position_index] == L
    set_slider(root, "position", positions.index(L))
    # One key press: one small step past L (not a jump to 2L).
    control = root.locator('input[data-name="position"]')
    ratio = root.locator("[data-dial-label]").first
    at_L = ratio.text_content()
    control.focus()
    control.press("ArrowRight")
    assert ratio.text_content() != at_L                      # the hands moved a little
    assert root.locator('output[data-name="position"]').inner_text().replace("\u202f", "") == str(positions[positions.index(L) + 1])
    # Play sweeps p onward a stop at a time until the reader moves the slider.
    play = control.locator("xpath=..").locator('[data-name="play"]')
    start = int(control.input_value())
    play.click()
    page.wait_for_function(f"(input) => Number(input.value) >= {start + 3}", arg=control.element_handle(), timeout=5000)
    control.press("ArrowLeft")
    assert play.get_attribute("aria-pressed") == "false"
    set_slider(root, "position", positions.index(L))


def test_trained_model_quiz_credits_the_fall_without_scaling(widget):
    page, root = widget("TrainedModelExplorer")
    data = W.TrainedModelExplorer().data
    fast, train, longest = data["fast_head"], data["training_length"], data["lengths"][-1]
    at = lambda scheme, n: data["attention"][scheme][str(n)][0][fast][1]  # noqa: E731
    # The data the quiz rests on: without scaling the head already loses most of t − 1.
    assert at("none", longest) < at("none", train) / 2
    # Moving to the longest length compares no scheme yet; picking PI does.
    text = predict_then_act(root, 1, lambda: root.locator('button[data-scheme="PI"]').click(),
                            before=[lambda: set_slider(root, "length", len(data["lengths"]) - 1)])
    assert root.locator('button[data-scheme="PI"]').get_attribute("aria-checked") == "true"
    assert f"{at('none', longest):.2f} with no scaling" in text
    root.locator('button[data-scheme="none"]').click()
    set_slider(root, "length", 0)


def test_no_slider_value_is_said_twice_and_the_result_is_announced(gallery_once):
    page, log = gallery_once
    live = page.evaluate("""() => [...document.querySelectorAll('.rope-w output')]
        .filter((o) => o.getAttribute('aria-hidden') !== 'true').length""")
    assert live == 0
    root = gallery_widget(page, "RotationMatrixHeatmap")
    if stage(root) == "asked":
        predict(root, 1)
    set_slider(root, "position", 5)
    region = root.locator('[data-readout="announce"]')
    page.wait_for_function("(node) => node.textContent.startsWith('m = 5')", arg=region.element_handle(), timeout=5000)
    assert region.get_attribute("aria-live") == "polite"
    assert not log.problems(), log.problems()


LABELS_AND_HANDLES = """(root) => {
  const svg = root.querySelector('svg.rope-w-svg');
  const rings = [...svg.querySelectorAll('[data-handle] .rope-w-ring')].map((c) => c.getBoundingClientRect());
  const labels = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && getComputedStyle(t).visibility !== 'hidden'
    && t.closest('[data-concealed]') === null && getComputedStyle(t.closest('g') || t).display !== 'none');
  const hits = [];
  for (const t of labels) {
    const b = t.getBoundingClientRect();
    for (const r of rings) {
      const w = Math.min(b.right, r.right) - Math.max(b.left, r.left), h = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
      if (w > 1 && h > 1) hits.push(`${t.textContent} over a handle by ${w.toFixed(1)}x${h.toFixed(1)}`);
    }
  }
  return hits;
}"""


@pytest.mark.parametrize("name", ["RelativeInvariance", "RotationExplorer"])
def test_no_label_under_a_handle_in_random_states(gallery_once, name):
    page, log = gallery_once
    root = gallery_widget(page, name)
    rng = np.random.default_rng(34)
    names = ["shift", "m", "n"] if name == "RelativeInvariance" else ["position", "theta"]
    for _ in range(40):
        for slider in names:
            top = int(root.locator(f'input[data-name="{slider}"]').get_attribute("max"))
            set_slider(root, slider, int(rng.integers(0, top + 1)))
        for handle in root.locator('[data-handle="q"], [data-handle="k"]').all():
            handle.focus()
            for _ in range(int(rng.integers(0, 36))):
                handle.press("Shift+ArrowRight")
        assert root.evaluate(LABELS_AND_HANDLES) == []
    assert not log.problems(), log.problems()


@pytest.fixture(scope="module")
def phone_gallery(chromium, book_server):
    from _browser import PHONE

    context, page, log = open_gallery(chromium, book_server, "dark", viewport=PHONE, touch=True)
    yield page, log
    context.close()


IN_VIEW = """(root) => {
  const drawing = root.querySelector('svg.rope-w-svg');
  const row = root.querySelector('.rope-w-in-reach');
  const slider = row && row.querySelector('input[type=range]');
  const d = drawing.getBoundingClientRect(), s = slider ? slider.getBoundingClientRect() : null;
  const x = s ? s.left + s.width / 2 : 0, y = s ? s.top + s.height / 2 : 0;
  const hit = s ? document.elementFromPoint(x, y) : null;
  return { drawing: [d.top, d.bottom], slider: s && [s.top, s.bottom], reachable: Boolean(hit && row.contains(hit)), height: innerHeight };
}"""


@pytest.mark.parametrize("name", [cls.__name__ for cls in W.REGISTRY])
def test_on_a_phone_the_drawing_and_its_main_slider_share_the_screen(phone_gallery, name):
    page, log = phone_gallery
    root = gallery_widget(page, name)
    # The reader scrolls the drawing to the top of the screen (below the theme's header) and
    # then down through it: the main slider stays on screen, reachable, the whole way.
    drawing = root.locator("svg.rope-w-svg").first
    for offset in (0.0, 0.5):
        drawing.evaluate("(svg, f) => { const b = svg.getBoundingClientRect();"
                         " window.scrollBy({top: b.top - 70 + f * Math.min(b.height, 300), behavior: 'instant'}); }", offset)
        page.wait_for_timeout(100)
        got = root.evaluate(IN_VIEW)
        assert got["slider"], name
        top, bottom = got["slider"]
        assert 0 <= top and bottom <= got["height"], (name, offset, got)
        assert got["drawing"][1] > 70 and got["drawing"][0] < got["height"], (name, offset, got)
        assert got["reachable"], (name, offset, got)
    assert not log.problems(), log.problems()


def test_play_yields_to_the_reader_and_ends(gallery_once):
    page, log = gallery_once
    root = gallery_widget(page, "RotationExplorer")
    set_slider(root, "position", 0)
    play = root.get_by_role("button", name="play m")
    play.click()
    page.wait_for_function("(b) => b.getAttribute('aria-pressed') === 'true'", arg=play.element_handle())
    page.wait_for_timeout(500)
    slider = root.locator('input[data-name="position"]')
    slider.focus()
    for _ in range(3):
        slider.press("ArrowRight")              # the reader takes over: play stops at once
    assert play.get_attribute("aria-pressed") == "false"
    at = int(slider.input_value())
    page.wait_for_timeout(700)                  # three of play's steps: none comes
    assert int(slider.input_value()) == at
    # The heat map's play runs to the last position and stops there (no loop).
    heat = gallery_widget(page, "RotationMatrixHeatmap")
    last = int(heat.locator('input[data-name="position"]').get_attribute("max"))
    set_slider(heat, "position", last - 2)
    heat.get_by_role("button", name="play position m").click()
    page.wait_for_function("(b) => b.getAttribute('aria-pressed') === 'false'",
                           arg=heat.get_by_role("button", name="play position m").element_handle(), timeout=5000)
    page.wait_for_timeout(600)
    assert int(heat.locator('input[data-name="position"]').input_value()) == last
    assert not log.problems(), log.problems()


FITS = """(root) => {
  const bad = [];
  for (const t of root.querySelectorAll('text[data-value-of]')) {
    const [layout, j] = t.dataset.valueOf.split(' ');
    const box = root.querySelector(`rect[data-layout="${layout}"][data-feature="${j}"]`);
    if (!box) continue;
    const a = t.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (a.left < b.left - 0.5 || a.right > b.right + 0.5) bad.push(`${t.dataset.valueOf}: ${t.textContent}`);
  }
  return bad;
}"""


@pytest.mark.parametrize("phone", [False, True])
def test_layout_numbers_stay_inside_their_boxes_at_every_dimension(gallery_once, phone_gallery, phone):
    page, log = phone_gallery if phone else gallery_once
    root = gallery_widget(page, "LayoutExplorer")
    for d in range(int(root.locator('input[data-name="dim"]').get_attribute("max")) + 1):
        set_slider(root, "dim", d)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert root.evaluate(FITS) == [], d
    set_slider(root, "dim", 0)
    assert not log.problems(), log.problems()


NAMES = """(root) => [...root.querySelectorAll('g[data-vector], g[data-dial], g[data-pair]')]
  .filter((g) => g.closest('[style*="display: none"]') === null)
  .filter((g) => g.getAttribute('role') !== 'img' || !g.getAttribute('aria-label'))
  .map((g) => g.outerHTML.slice(0, 80))"""


@pytest.mark.parametrize("name", ["RelativeInvariance", "RotationExplorer", "RotationMatrixHeatmap", "FrequencyClocks", "ContextExtension"])
def test_every_arrow_and_dial_has_a_name(gallery_once, name):
    page, log = gallery_once
    root = gallery_widget(page, name)
    assert root.evaluate(NAMES) == []
    assert not log.problems(), log.problems()


def test_on_a_phone_a_tap_picks_a_candidate(phone_gallery):
    page, log = phone_gallery
    root = gallery_widget(page, "CandidateExplorer")
    mini = root.locator(".rope-w-question button[data-answer]").nth(2)
    pressed = mini.get_attribute("aria-pressed")
    mini.tap()
    assert mini.get_attribute("aria-pressed") != pressed
    assert root.locator('.rope-w-mini[data-shown]').get_attribute("data-candidate") == "2"
    assert not log.problems(), log.problems()


def test_on_a_phone_a_tap_on_a_base_dot_picks_the_base(phone_gallery):
    page, log = phone_gallery
    root = gallery_widget(page, "DecayExplorer")
    root.locator('[data-pick-base="4"]').tap()
    assert root.locator('input[data-name="base"]').input_value() == "4"
    assert not log.problems(), log.problems()


def test_on_a_phone_a_tap_on_the_track_moves_p_in_its_small_steps(phone_gallery):
    page, log = phone_gallery
    root = gallery_widget(page, "ContextExtension")
    control = root.locator('.rope-w-in-reach input[data-name="position"]')
    box = control.bounding_box()
    page.touchscreen.tap(box["x"] + 0.75 * box["width"], box["y"] + box["height"] / 2)
    top = int(control.get_attribute("max"))
    assert abs(int(control.input_value()) - 0.75 * top) <= 0.05 * top, control.input_value()
    assert not log.problems(), log.problems()
