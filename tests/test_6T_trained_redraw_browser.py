"""TrainedModelExplorer redraws only what a step changed: after any sequence of steps its
drawing and read-outs are exactly those of a widget drawn afresh at the same settings.

Two copies of the widget's module run on the built chapter page with a plain stand-in for the
anywidget model: one is stepped through a random walk of its controls (length, query, scheme,
pair switches, head buttons), and after each step a new one is rendered at the walk's settings
and compared node by node (tag, every attribute, text).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from _browser import goto

from rope_core.widgets import TrainedModelExplorer

pytestmark = [pytest.mark.book, pytest.mark.browser]
PAGE = "book/11-train-a-tiny-model.html"

# In the page: `render(values)` draws a copy of the widget into a new 800 px box with a stand-in
# model holding `values`; `snapshot(root)` lists its drawing's nodes and its read-outs.
SETUP = """
async (data) => {
  const url = new URL("../_static/rope-widgets/trained_model.js", location.href);
  const module = await import(url.href);
  window.renderCopy = (values) => {
    const box = document.createElement("div");
    box.style.width = "800px";
    document.querySelector("main, body").append(box);
    const handlers = {};
    const model = {
      get: (key) => key === "data" ? data : values[key],
      set: (key, value) => { values[key] = value; },
      save_changes: () => {},
      on: (event, handler) => { (handlers[event] = handlers[event] || []).push(handler); },
    };
    module.default.render({ model, el: box });
    return box.querySelector(".rope-w");
  };
  window.snapshot = (root) => {
    const nodes = [...root.querySelector("svg").querySelectorAll("*")].map((node) =>
      [node.tagName, [...node.attributes].map((a) => `${a.name}=${a.value}`).sort().join(" "),
       node.children.length ? "" : node.textContent]);
    const readouts = [...root.querySelectorAll("[data-readout]:not([data-readout=announce])")].map((node) =>
      [node.dataset.readout, node.textContent, JSON.stringify({ ...node.dataset })]);
    const pressed = [...root.querySelectorAll("[aria-pressed], [aria-checked], output")].map((node) =>
      `${node.getAttribute("aria-pressed")} ${node.getAttribute("aria-checked")} ${node.tagName === "OUTPUT" ? node.textContent : ""}`);
    return { nodes, readouts, pressed };
  };
  window.walked = window.renderCopy({ scheme: 0, length: 0, off0: 0, off1: 0, query: 0 });
}
"""


@pytest.fixture(scope="module")
def data():
    return TrainedModelExplorer().data


@pytest.fixture
def page(book_server, browser_page, data):
    page, log = browser_page
    goto(page, f"{book_server}/{PAGE}")
    page.evaluate(SETUP, json.loads(json.dumps(data)))
    yield page
    assert not log.page_errors, log.page_errors


def _step(page, action, value):
    """One reader's act on the walked copy."""
    if action in ("length", "query"):
        page.evaluate("""([name, value]) => { const input = walked.querySelector(`input[data-name=${name}]`);
            input.value = value; input.dispatchEvent(new Event("input")); }""", [action, value])
    elif action == "scheme":
        page.evaluate("(i) => walked.querySelectorAll('[data-scheme]')[i].click()", value)
    elif action == "pair":
        page.evaluate("([layer, i]) => walked.querySelector(`button.rope-w-pair[data-layer='${layer}'][data-pair='${i}']`).click()", value)
    else:  # a head button: that head's arcs
        page.evaluate("([layer, head]) => walked.querySelector(`.rope-w-heads button[data-layer='${layer}'][data-head='${head}']`).click()", value)


def _settings(page):
    """The walked copy's settings, read from its controls."""
    return page.evaluate("""() => ({
      scheme: [...walked.querySelectorAll('[data-scheme]')].findIndex((b) => b.getAttribute('aria-checked') === 'true'),
      length: Number(walked.querySelector('input[data-name=length]').value),
      query: Number(walked.querySelector('input[data-name=query]').value),
      off0: Number(walked.querySelector('[data-readout=ablation0]').dataset.bits),
      off1: Number(walked.querySelector('[data-readout=ablation1]').dataset.bits),
      heads: [0, 1].map((layer) => Number(walked.querySelector(`g[data-arcs='${layer}']`).dataset.head)),
    })""")


def test_a_random_walk_draws_what_a_fresh_widget_draws(page, data):
    rng = np.random.default_rng(6)
    pairs = len(data["wavelengths"])
    defaults = page.evaluate("() => [0, 1].map((layer) => Number(walked.querySelector(`g[data-arcs='${layer}']`).dataset.head))")
    compared = set()
    for _ in range(60):
        action = rng.choice(["length", "query", "scheme", "pair", "head"], p=[0.3, 0.3, 0.15, 0.15, 0.1])
        value = {
            "length": int(rng.integers(len(data["lengths"]))),
            "query": int(rng.integers(data["arc_queries"])),
            "scheme": int(rng.integers(len(data["schemes"]))),
            "pair": [int(rng.integers(2)), int(rng.integers(pairs))],
            "head": [int(rng.integers(2)), int(rng.integers(data["n_heads"]))],
        }[action]
        _step(page, action, value)
        settings = _settings(page)
        heads = settings.pop("heads")
        fresh = page.evaluate_handle("(values) => renderCopy(values)", settings)
        # The fresh copy opens on its default heads: pick the walked copy's where they differ.
        for layer, head in enumerate(heads):
            if head != defaults[layer]:
                fresh.evaluate("(root, [layer, head]) => root.querySelector(`.rope-w-heads button[data-layer='${layer}'][data-head='${head}']`).click()", [layer, head])
        walked, drawn = page.evaluate("() => snapshot(walked)"), fresh.evaluate("(root) => snapshot(root)")
        assert len(walked["nodes"]) == len(drawn["nodes"]), (action, value, settings)
        for mine, theirs in zip(walked["nodes"], drawn["nodes"]):
            assert mine == theirs, (action, value, settings)
        assert walked["readouts"] == drawn["readouts"], (action, value, settings)
        assert walked["pressed"] == drawn["pressed"], (action, value, settings)
        fresh.evaluate("(root) => root.parentElement.remove()")
        compared.add((settings["length"], settings["scheme"]))
    # The walk went through every length, and through several schemes.
    assert {length for length, _ in compared} == set(range(len(data["lengths"])))
    assert len({scheme for _, scheme in compared}) >= 3


def test_a_query_step_changes_no_strip_and_only_the_cells_it_must(page, data):
    """A step of the query leaves every strip's nodes untouched and rewrites the class of at
    most the cells whose role (query, earlier copy, plain) changed."""
    page.evaluate("""() => {
      window.changed = [];
      new MutationObserver((records) => window.changed.push(...records.map((r) =>
        [r.target.closest('[data-layer]') ? 'strip' : r.target.getAttribute('data-position') !== null ? 'cell' : 'other', r.attributeName || r.type])))
        .observe(walked.querySelector('svg'), { subtree: true, attributes: true, childList: true, characterData: true });
    }""")
    length = data["lengths"][0]
    tokens = data["tokens"][str(length)]
    first = length - data["arc_queries"]
    _step(page, "query", 3)
    for query in (4, 5):
        page.evaluate("() => { window.changed = []; }")
        _step(page, "query", query)
        page.wait_for_timeout(50)
        changed = page.evaluate("() => window.changed")
        assert not [c for c in changed if c[0] == "strip"], changed
        cells = [c for c in changed if c[0] == "cell"]
        assert all(attribute == "class" for _, attribute in cells), cells
        # the roles that can change: the old and new query, and the two tokens' earlier copies
        before, after = first + query - 1, first + query
        roles = lambda t: {s for s in range(length) if s == t or (tokens[s] == tokens[t] and s < t)}  # noqa: E731
        assert 0 < len(cells) <= len(roles(before) | roles(after)), cells
