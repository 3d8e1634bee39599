"""The model menu of ContextExtension on the published chapter page (no kernel).

Opens chapter 9 in Debian's chromium on a desktop and on a touch phone, light and dark, picks
every model of the menu (by keyboard for the first steps), and checks the numbers the page
shows against rope_core's atlas: rope type, base, training and maximum positions, how many
pairs never complete a turn in training, and the slow pairs beyond training at max positions.
"""

from __future__ import annotations

import numpy as np
import pytest
from _browser import CONTRAST_JS, DESKTOP, PHONE, open_book_page

import rope_core as rc

pytestmark = [pytest.mark.book, pytest.mark.browser]
PAGE = "book/09-longer-contexts.html"
MENU = [(name, layer_type) for name in rc.atlas.names() for layer_type in rc.atlas.specs(name)]
SCALED = ("linear", "ntk", "dynamic", "yarn", "llama3", "longrope")


def expected(name, layer_type):
    """What the read-out must say, straight from the RopeSpec (closed-form unscaled frequencies)."""
    spec = rc.atlas.specs(name)[layer_type]
    context = spec.max_position_embeddings
    shipped = spec.frequencies_at(context)
    turning = shipped > 0
    trained = (spec.base ** (-np.arange(0, spec.rotary_dim, 2) / spec.rotary_dim)
               if spec.rope_type in SCALED else shipped)
    training = spec.original_max_position_embeddings
    if training is None and spec.rope_type not in SCALED:
        training = context
    if training is None:
        slow = turning & (context * shipped < 2 * np.pi)
    else:
        slow = turning & (training * trained < 2 * np.pi)
    beyond = worst = None
    if training is not None and context > training and slow.any():
        ratio = context * shipped[slow] / (training * trained[slow])
        beyond, worst = int((ratio > 1 + 1e-9).sum()), float(ratio.max())
    return {"rope_type": spec.rope_type, "base": spec.base, "training": training, "context": context,
            "slow": int(slow.sum()), "rotated": spec.rotated_pairs, "beyond": beyond, "worst": worst,
            "longest": float(np.log10(2 * np.pi / shipped[turning]).max())}


def check_readout(page, index):
    readout = page.locator('.rope-w [data-readout="model"]')
    got = readout.evaluate("(el) => ({...el.dataset})")
    name, layer_type = MENU[index]
    want = expected(name, layer_type)
    assert (got["name"], got["layerType"] or None) == (name, layer_type)
    assert got["ropeType"] == want["rope_type"]
    assert float(got["base"]) == pytest.approx(want["base"], rel=1e-12)
    assert (int(got["training"]) if got["training"] else None) == want["training"], name
    assert int(got["context"]) == want["context"]
    assert (int(got["slow"]), int(got["rotated"])) == (want["slow"], want["rotated"]), name
    if want["beyond"] is None:
        assert got["beyond"] == "" and got["worst"] == "", name
    else:
        assert int(got["beyond"]) == want["beyond"], name
        assert float(got["worst"]) == pytest.approx(want["worst"], abs=1e-6), name
    assert float(got["longest"]) == pytest.approx(want["longest"], abs=1e-9), name
    # The visible text says the same numbers.
    text = readout.inner_text()
    assert f"{want['slow']} of {want['rotated']} pairs never complete a turn" in text, text
    if want["beyond"]:
        assert f"{want['beyond']} of {want['slow']} slow pairs" in text and f"{want['worst']:.2f}×" in text, text
    # Whether the model was trained with its scaling, from the atlas with its source: said for
    # every scaled layer type the atlas records, never for an unscaled one.
    entry = rc.atlas.entry(name)
    trained = entry.scaling_trained if want["rope_type"] in rc.atlas.SCALED_ROPE_TYPES else None
    assert got["scalingTrained"] == ("" if trained is None else "1" if trained else "0"), name
    if trained is not None:
        assert ("was trained on long inputs with this scaling" if trained else "was not trained with this scaling") in text, text
        assert f"Source: {entry.scaling_source}" in text.replace("\n", " "), text


LINE_CONTRAST = """
(root) => {""" + CONTRAST_JS + """
  const bg = rgb(getComputedStyle(root).backgroundColor);
  const svg = root.querySelector(".rope-w-section svg");
  const out = {};
  for (const dot of svg.querySelectorAll("circle[data-band]")) out[`band ${dot.dataset.band}`] = ratio(bg, rgb(getComputedStyle(dot).fill));
  for (const cls of ["rope-w-context", "rope-w-trained"]) {
    const line = svg.querySelector(`.${cls}`);
    if (line) out[cls] = ratio(bg, rgb(getComputedStyle(line).stroke));
  }
  return out;
}
"""


@pytest.mark.parametrize("scheme, viewport, touch", [("light", DESKTOP, False), ("dark", PHONE, True)],
                         ids=["desktop-light", "phone-dark"])
def test_model_menu_redraws_with_each_models_numbers(chromium, book_server, screenshot_dir, scheme, viewport, touch):
    context, page, log = open_book_page(chromium, book_server, PAGE, scheme, viewport=viewport, touch=touch)
    try:
        page.locator('.rope-w button[data-step="models"]').first.click()
        select = page.locator('.rope-w select[data-name="model"]')
        assert select.count() == 1
        options = select.locator("option")
        assert options.count() == len(MENU)
        label = page.locator(f'label[for="{select.get_attribute("id")}"]')
        assert label.inner_text().strip() == "model"
        assert select.bounding_box()["height"] >= 44, "touch target"
        start = int(select.input_value())
        assert MENU[start] == ("llama-3.1-8b", None)
        check_readout(page, start)
        widget = page.locator(".rope-w", has=page.locator('select[data-name="model"]'))
        widget.screenshot(path=str(screenshot_dir / f"models-{MENU[start][0]}-{scheme}-{viewport['width']}.png"))
        # Keyboard only: focus the menu and step down.
        drawing = widget.locator(".rope-w-section svg")
        before = drawing.inner_html()
        select.focus()
        page.keyboard.press("ArrowDown")
        assert int(select.input_value()) == start + 1
        assert drawing.inner_html() != before
        check_readout(page, start + 1)
        # Every model offered, then back to some with per-layer entries for screenshots.
        for index in range(len(MENU)):
            select.select_option(str(index))
            check_readout(page, index)
        for key in [("gemma-3-4b", "full_attention"), ("deepseek-v3", None), ("gpt-oss-20b", "sliding_attention")]:
            select.select_option(str(MENU.index(key)))
            widget.screenshot(path=str(screenshot_dir / f"models-{key[0]}-{scheme}-{viewport['width']}.png"))
        # Lines and dots that carry meaning stand out from the background: >= 3:1 (WCAG 1.4.11).
        ratios = widget.evaluate(LINE_CONTRAST)
        assert ratios and min(ratios.values()) >= 3.0, ratios
        # Nothing sticks out of a phone's screen.
        width = page.evaluate("document.documentElement.clientWidth")
        box = widget.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (box, width)
        assert not log.problems(), log.problems()
    finally:
        context.close()
