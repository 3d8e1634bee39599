"""The widgets of the book: one entry each, and everything else is derived from it.

A widget is three things: its Python class (which computes its table with ``rope_core``),
its ES module (which draws it) and its :class:`Widget` entry in :data:`WIDGETS` below. From the
entries come the package's exports (``rope_core.widgets.<Name>`` and ``REGISTRY``), the
gallery page (``scripts/make_gallery.py``: the card, its thumbnail, the live widget and its
print figure), the print figure the static pages show in its place when printed or opened as
files (``book/_ext/widget_state.py``), and every test and benchmark that runs over all widgets.

The entries are in book order: where a chapter first builds each widget (the gallery checks
it). ``tests/test_widget_registry.py`` checks each entry against its class: the ES module and
stylesheets the class loads, the demo module it reads, a print figure for every widget.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

from ..demos.rotation import RELATIVE_DEFAULTS, relative_state, unit_vector


@dataclass(frozen=True)
class GalleryCard:
    """The gallery's hand-written text of one widget (every field optional).

    Without a ``title``, the gallery takes the class name as words and the first paragraph of
    its docstring as the intro. The section's figure, the widget's print figure, is
    ``plots.<function>(<left>)`` beside ``plots.<function>(<right>)`` after the ``setup``
    lines (or ``figure_code``), with ``caption`` and ``alt`` text; the card's thumbnail is the
    left view (or ``thumbnail_code``, drawn on ``ax``).
    """

    title: str = ""
    intro: str = ""
    caption: str = ""
    alt: str = ""
    function: str = ""
    left: str = ""
    right: str = ""
    setup: str = ""
    lesson: str = ""          # one line for the card; default: the intro's first sentence
    thumb_alt: str = ""       # alt text of the card's thumbnail
    figure_code: str = ""     # the figure's code, when it is not the two views side by side
    thumbnail_code: str = ""  # the thumbnail's code on ``ax``, when there is no plotting function

    @property
    def figure(self):
        """The print figure's code ("" when the section has none)."""
        if self.figure_code:
            return self.figure_code
        if not self.function:
            return ""
        return (f"fig, (left, right) = plots.new_figure(1, 2, figsize=(9, 4))\n{self.setup}"
                f"plots.{self.function}({self.left}, ax=left)\nplots.{self.function}({self.right}, ax=right);")

    @property
    def thumbnail(self):
        """Code that draws the card's thumbnail on ``ax`` ("" when there is none)."""
        if self.thumbnail_code:
            return self.thumbnail_code
        return f"{self.setup}plots.{self.function}({self.left}, ax=ax)" if self.function else ""


@dataclass(frozen=True)
class Widget:
    """One widget of the book.

    Parameters
    ----------
    name : str
        Its class name, exported as ``rope_core.widgets.<name>``.
    module : str
        The module of ``rope_core.widgets`` that defines the class (``"explorers"``).
    js : str
        Its ES module, a file of ``rope_core/widgets/`` (``export default { render }``).
    css : tuple of str
        Its own stylesheets in ``rope_core/widgets/``, in the order its ``_css`` joins them
        (``common.css`` comes with ``common.js`` to every widget).
    demo : str
        The module of ``rope_core`` that computes its table (``"demos.rotation"``).
    card : GalleryCard
        Its gallery text.
    print_figure : tuple of (str, str), optional
        ``(page, figure id)`` of the figure that stands in for it in print, when its gallery
        section has no figure of its own.
    """

    name: str
    module: str
    js: str
    css: tuple[str, ...]
    demo: str
    card: GalleryCard = GalleryCard()
    print_figure: tuple[str, str] | None = None

    @property
    def cls(self):
        """The widget's class (imported on first use)."""
        return getattr(importlib.import_module(f"{__package__}.{self.module}"), self.name)

    @property
    def kebab(self):
        """``RotationExplorer`` → ``rotation-explorer``: the gallery's anchors and figure ids."""
        return re.sub(r"(?<!^)(?=[A-Z])", "-", self.name).lower()

    @property
    def print_figure_place(self):
        """``(page, figure id)`` of its print figure: its own, or the gallery section's."""
        return self.print_figure or ("gallery", f"fig-gallery-{self.kebab}")


# The RelativeInvariance widget's defaults (one place: rope_core.demos.rotation), shared by its
# figure's code and the score quoted in its alt text.
RELATIVE = RELATIVE_DEFAULTS


def _vector_code(angle, length):
    """Python source of the vector the widget draws at ``angle`` degrees with ``length``."""
    scale = "" if length == 1 else f"{length:g} * "
    return f"{scale}np.array([np.cos(np.radians({angle:g})), np.sin(np.radians({angle:g}))])"


def _relative_score():
    """The score the RelativeInvariance figure shows (the widget reads out the same number)."""
    q = RELATIVE["q_length"] * unit_vector(RELATIVE["q_angle"])
    k = RELATIVE["k_length"] * unit_vector(RELATIVE["k_angle"])
    return float(relative_state(q, k, RELATIVE["m"], RELATIVE["n"], 0, RELATIVE["theta"])["score"])


WIDGETS = (
    Widget(
        "RelativeInvariance", module="explorers", js="relative_invariance.js", css=("lesson.css",), demo="demos.rotation",
        card=GalleryCard(
            "Shift two positions together",
            r"""The query sits at $m + \Delta$, the key at $n + \Delta$; the dashed arrows are the pair before the
shift. The widget asks which move changes the score, shifting both by $\Delta$ or changing
$n - m$: predict, then move $\Delta$ and $m$ or $n$ and watch the score and its two strips.""",
            "Shifting both positions by 9 turns both vectors by the same angle γ apart; the score in the title does "
            "not change: it sits on the flat strip against Δ, while the strip against n − m is a cosine.",
            "Two panels with a blue rotated query and an orange rotated key and the arc of the angle gamma between "
            "them. Under each are two small strips, the score against the shift (a flat line) and against n minus "
            "m (a cosine), each with a dot. Between the left panel (no shift) and the "
            "right panel (shift 9) both arrows have turned by the same angle, and both titles show the same score, "
            f"{_relative_score():.4f}, the value the widget reads out for m = {RELATIVE['m']} and n = {RELATIVE['n']}.",
            function="plot_relative_invariance",
            left=f"q, k, m={RELATIVE['m']}, n={RELATIVE['n']}, shift=0, theta={RELATIVE['theta']:g}",
            right=f"q, k, m={RELATIVE['m']}, n={RELATIVE['n']}, shift=9, theta={RELATIVE['theta']:g}",
            lesson="Shift the query and the key together: what does their score do?",
            thumbnail_code="thumbnails.relative_invariance_thumbnail(ax=ax)",
            thumb_alt="Two circles, each with a blue query arrow, an orange key arrow and a pink arc for the angle between them: before a shift (left) and with both positions shifted (right), where both arrows have turned.",
            setup=f"""\
# The widget's default vectors: q at {RELATIVE['q_angle']:g} degrees, k of length {RELATIVE['k_length']:g} at {RELATIVE['k_angle']:g} degrees.
q = {_vector_code(RELATIVE['q_angle'], RELATIVE['q_length'])}
k = {_vector_code(RELATIVE['k_angle'], RELATIVE['k_length'])}
""",
        ),
    ),
    Widget(
        "RotationExplorer", module="explorers", js="rotation_explorer.js", css=("lesson.css",), demo="demos.rotation",
        card=GalleryCard(
            "Rotate one vector",
            r"""A query $\mathbf{q}$ and its rotation $R(m\theta)\,\mathbf{q}$, the rotated axis vectors
$R\mathbf{e}_0$, $R\mathbf{e}_1$ (the columns of the live matrix beside it) and the trail of earlier
positions. The complex read-out is the same rotation written as $q\,e^{\mathrm{i}m\theta}$ (chapter
{numref}`%s <chapter-complex-form>`).""",
            r"The rotation explorer's view at positions 3 and 21 ($\theta = 0.3$, the widget's default): the green "
            r"arrow is $\mathbf{q}$ turned by $m\theta$, the dashed arrows are $R\mathbf{e}_0$ and $R\mathbf{e}_1$, "
            r"the columns of the matrix written top left; at 21, the closest return so far, it is back near its start.",
            "Two panels. Left, a blue vector q at about 27 degrees and a green copy of it rotated by 0.9 radians, "
            "with an arc labelled m theta between them, two dashed unit arrows R e0 and R e1 at right angles, and "
            "the 2 by 2 matrix 0.622, minus 0.783, 0.783, 0.622 in the corner. Right, the same vector rotated by "
            "6.3 radians, almost back on q and ringed as the closest return, with grey dots marking the 21 earlier "
            "positions on the circle.",
            function="plot_rotation", left="(1.0, 0.5), position=3, theta=0.3",
            right="(1.0, 0.5), position=21, theta=0.3",
            lesson="Turn a vector by mθ, one position after another: does it ever come back to where it started?",
            thumbnail_code="thumbnails.rotation_thumbnail(ax=ax)",
            thumb_alt="A circle with a blue vector and a green copy of it turned by m theta, a pink arc between them and grey dots on the circle where the copy pointed at the earlier positions.",
        ),
    ),
    Widget(
        "CandidateExplorer", module="explorers", js="candidate_explorer.js", css=("lesson.css",), demo="demos.candidates",
        card=GalleryCard(
            "Test a candidate encoding",
            r"""The {term}`wish` of {numref}`chapter %s <chapter-deriving-rope>` as a picture: a score that depends on the positions only
through $n - m$ is constant along every diagonal of the matrix of scores over $(m, n)$. Pick a
candidate $f$ and see whether its diagonals stay one colour, in the real part (the score) and in
the imaginary part (the rest of the {term}`complex wish`).""",
            "The score matrices of the rotation (every diagonal constant) and of the quadratic candidate (not).",
            "Two 16 by 16 heat maps with query position down and key position across. Left, the rotation, with stripes "
            "parallel to the main diagonal, each one colour. Right, the quadratic candidate, whose colours change along "
            "every diagonal.",
            function="plot_candidate_scores", left='"rotation"', right='"quadratic"',
            lesson="A score that depends on n − m only is one colour along each diagonal: which candidates give one?",
            thumbnail_code="thumbnails.candidate_thumbnail(ax=ax)",
            thumb_alt="An 8 by 8 grid of red and blue cells, the scores over query and key positions, with one diagonal of cells crossed by a black line.",
        ),
    ),
    Widget(
        "RotationMatrixHeatmap", module="explorers", js="rotation_matrix_heatmap.js", css=("spectrum.css",), demo="demos.spectrum",
        card=GalleryCard(
            "Look inside the rotation matrix",
            r"""$R^d_{\Theta,m}$ is zero except for its $2 \times 2$ blocks; each block turns one pair. The widget
multiplies $R_m$ by a vector $x$ whose pairs all start at $(1, 0)$: the dial beside each block is
that pair of $R_m x$, turned by $m\theta_i$.""",
            r"The widget at its first position and at the question's, $m = 1$ and $m = 32$ ($d = 8$, base $10\,000$): $R_m$ times "
            r"$x$ equals $R_m x$, and beside each $2 \times 2$ block a dial shows its pair of $R_m x$, turned by "
            r"$m\theta_i$. At $m = 32$ the top block has turned 32 rad, the bottom one 0.032 rad, still nearly the "
            r"identity.",
            "Two panels, each an 8 by 8 heat map, white except four 2 by 2 blocks on the diagonal, a column x, an "
            "equals sign, the column R_m x and four dials beside the blocks with their angles. Left, at m = 1, the hands "
            "point at 1, 0.1, 0.01 and 0.001 rad. Right, at m = 32, the top blocks have changed colour and the hands "
            "point at 32, 3.2, 0.32 and 0.032 rad, the last marked as nearly the identity.",
            function="plot_rotation_matrix", left="position=1, dim=8", right="position=32, dim=8",
            lesson="RoPE's matrix is zero outside its 2 × 2 blocks: far along, which blocks are still nearly the identity?",
            thumbnail_code="thumbnails.rotation_matrix_thumbnail(ax=ax)",
            thumb_alt="An 8 by 8 matrix, white except four 2 by 2 coloured blocks outlined in black along its diagonal.",
        ),
    ),
    Widget(
        "FrequencyClocks", module="explorers", js="frequency_clocks.js", css=("spectrum.css",), demo="demos.spectrum",
        card=GalleryCard(
            "Turn the frequency clocks",
            r"""Each pair $i$ is a hand turning $\theta_i = \text{base}^{-2i/d}$ radians per position; the number
under each face counts its turns. The widget asks which hands have turned once by $m = L$, the
context length: predict, then drag a hand, move $m$ or run the time-lapse to $L$. Its time-lapse runs $m$ on a logarithmic clock, and its odometer row writes the
digits $\lfloor m/\beta^i\rfloor \bmod \beta$ of $m$, the digits picture of chapter 5. It opens on
that chapter's toy head ($d = 8$, {term}`base` $10\,000$, $\beta = 10$), whose wheels spell $m$ in decimal.""",
            r"The widget's question and its answer on chapter 5's toy head ($d = 8$, base $10\,000$, $\beta = 10$): "
            r"the four hands at $m = 10$ (left) and at $m = L = 256$ (right), the turns under each face and the "
            r"odometer, which spells $m$ in decimal. Hands 2 and 3, grey and dashed, do not complete a turn in 256 "
            r"tokens.",
            "Two grids of four clocks with a turn count under each face and a row of four digit boxes below. Left, "
            "at position 10, 1 of 4 hands has made a full turn and the digits read 0 0 1 0. Right, at position 256, "
            "2 of 4 hands have made a full turn and the digits read 0 2 5 6. The two lower clocks of each grid are "
            "dashed with grey hands that have barely turned.",
            function="plot_frequency_clocks", left="position=10, dim=8, base=10000.0, context=256, odometer=True",
            right="position=256, dim=8, base=10000.0, context=256, odometer=True",
            lesson="Every pair is a clock hand with its own speed: which of them turn within the context?",
            thumbnail_code="thumbnails.clocks_thumbnail(ax=ax)",
            thumb_alt="Four clock faces, one per pair, each with a blue hand pointing a different way.",
        ),
    ),
    Widget(
        "LayoutExplorer", module="explorers", js="layout_explorer.js", css=("spectrum.css",), demo="demos.spectrum",
        card=GalleryCard(
            "Pair the features two ways",
            """The interleaved and {term}`half layouts <half layout>`, the permutation between them, and what it and
`rotate_half` do to a vector's numbers. A switch loads a previous-token head's weights into the
other layout's code: what happens to its score against $n - m$?""",
            r"The widget as it opens, $d = 16$ with pair 1, its switch both off and on: $x = (1, 2, \dots, 16)$, its "
            r"half layout $P\mathbf{x}$ and `rotate_half` of $P\mathbf{x}$ (halves swapped, the new first half negated, "
            r"in bold), the pair's boxes shaded and its lines bold. Below, a head trained in the interleaved layout to "
            r"look one token back. Over “the old cat sat on the warm mat”, “mat” gives “warm” 82 % of its "
            r"attention as trained (solid bars); run through half-layout code (the wrong layout, hatched bars) it "
            r"looks most at itself, 47 %. Its score against $n - m$ peaks at $-1$ as trained and at $0$ in the wrong "
            r"layout.",
            "Three rows of sixteen numbered boxes joined by lines, 1 to 16 on top; 1, 3, 5 and so on to 15, then 2, "
            "4, 6 and so on to 16 in the middle; minus 2, minus 4 and so on to minus 16, then 1, 3 and so on to 15 "
            "at the bottom. Below, a bar chart over the eight words of the sentence, where the solid bar over warm is by "
            "far the tallest, 82 %, while the hatched bars are tallest over mat, 47 %, and warm, 20 %. At the bottom "
            "two curves against n minus m. The solid trained curve peaks at 1 at n minus m = minus 1, the dashed "
            "wrong-layout curve peaks lower, at 0.71 at n minus m = 0.",
            function="plot_layouts", left="dim=16, pair=1",
            figure_code="fig, ax = plots.new_figure(figsize=(5.4, 8.0))\nplots.plot_layouts(dim=16, pair=1, ax=ax);",
            lesson="Two layouts pair different features: what does a head trained in one do in the other's code?",
            thumbnail_code="thumbnails.layout_thumbnail(ax=ax)",
            thumb_alt="Two rows of eight coloured boxes, two boxes of each colour: side by side in the top row, four apart in the bottom row, with a line from each box to its place.",
        ),
    ),
    Widget(
        "DecayExplorer", module="explorers", js="decay_explorer.js", css=("context.css", "lesson.css"), demo="demos.decay",
        card=GalleryCard(
            "Watch the decay bound (and what it does not say)",
            r"""One query/key pair's score and RoFormer's bound on it (dashed), in one unit, the score
divided by $\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}\rVert$, on one logarithmic axis. The bound
falls with distance; slide the key from aligned to random and find out whether its score falls too.""",
            "The widget at base 10 000 with its question answered (print cannot ask it first): "
            r"$|\text{score}|$ divided by $\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}\rVert$ against distance on one "
            "logarithmic axis, for the aligned key $\\mathbf{k} = \\mathbf{q}$ (blue) and a random key (green), each with "
            "RoFormer's bound on it (dashed), and the 10–90 % band of 1000 random pairs with its median. Both bounds "
            "fall with distance; the aligned score falls, the random key's does not: it wanders inside the band, "
            "which stays flat.",
            "A plot against distance from 0 to 1024 with a logarithmic axis from 0.001 to 200. Two dashed bound "
            "lines fall, wiggling, from the top left, the random key's from 88 to 10.9, the aligned key's from 32.5 to "
            "4.0. The aligned pair's blue score falls from 1 to about 0.2. The random key's green score jumps "
            "between about 0.01 and 0.13 without falling, inside a flat orange band from about 0.01 to 0.15 whose "
            "median line stays near 0.06.",
            function="plot_decay", left="base=10000.0",
            figure_code="fig, ax = plots.new_figure(figsize=(6.4, 4.6))\nplots.plot_decay(base=10000.0, ax=ax);",
            lesson="RoFormer's bound falls with distance: do the scores it bounds fall too?",
            thumbnail_code="thumbnails.decay_thumbnail(ax=ax)",
            thumb_alt="Against distance, on a log axis: a dashed black bound line high above, and the aligned pair's blue score falling from the top left.",
        ),
    ),
    Widget(
        "ContextExtension", module="explorers", js="context_extension.js", css=("context.css",), demo="demos.context",
        card=GalleryCard(
            "Stretch the context",
            """Five ways to turn a model trained on $L = 4096$ tokens into one that reads $sL$, in the
chapter's steps: the problem (one dial per slow pair, the arc it covered in training shaded, its
hand at position $p$), dividing every {term}`frequency` (PI, NTK-aware), and keeping the fast pairs while
dividing the slow ones ({term}`YaRN`, Llama 3.1). Under "numbers": the {term}`attention factor`, how far the
slowest pair turns, and how many of the slow pairs (those that complete less than one turn in
$L$ tokens) turn further at $p$ than they ever did in training. Each step asks you to predict
that count before you move the controls.

Step 4 shows a real model's RoPE from `rope_core.atlas` (each layer type with RoPE as its own
entry): every pair's {term}`wavelength` as the model ships it (coloured by how much its scaling
stretched it), and as trained where scaling changed it, against the trained length and the
maximum positions of its config. Shaded pairs never complete a turn in training; the read-out
says how many of them turn further at the maximum position than they did in the first training
length, and whether the model was then trained with its scaling. Pick your own model: how many
of its slow pairs leave their trained arc?""",
            r"The widget's four steps at $s = 8$ and $p = sL = 32\,768$ ($d = 128$, base 10 000, $L = 4096$), each dial one "
            r"of six of the 18 slow pairs: its trained arc shaded, its hand at $p$ (orange past the arc), the angle at $p$ "
            r"over the largest trained angle under it. (1) Without scaling all 18 are past their arc, by 8×. (2) PI brings "
            r"all 18 back; NTK-aware leaves 17 past, by up to 1.75×. (3) YaRN and Llama 3.1 bring all 18 back and keep "
            r"the fast pairs. (4) Llama 3.1 8B as shipped: its 29 slow pairs turn up to 2× further than in the first "
            r"8 192 tokens of training, and it was trained on long inputs with this scaling.",
            "Four panels stacked. The first three show rows of six small dials with shaded training arcs and hands. "
            "Without scaling every hand is orange and far past its arc; under linear interpolation, YaRN and Llama 3.1 "
            "every hand sits at the end of its arc; under NTK-aware the first five hands are past it. The last panel "
            "plots Llama 3.1 8B's wavelength per pair on a log scale, kept, blended and scaled pairs in three colours, "
            "above a dashed line of the trained wavelengths.",
            function="plot_context_step", left='"problem", factor=8, dials=4',
            figure_code='fig, axes = plots.new_figure(4, 1, figsize=(6.4, 10.5), '
                        'gridspec_kw={"height_ratios": [1.25, 2, 2, 2.6]})\n'
                        'for step, ax in zip(("problem", "divide", "bands", "models"), axes):\n'
                        '    plots.plot_context_step(step, factor=8, ax=ax)',
            lesson="Five ways to stretch a trained context: which of them keep every slow pair within its trained arc?",
            thumbnail_code="thumbnails.context_thumbnail(ax=ax)",
            thumb_alt="Six dials of slow pairs in two rows, each with a grey shaded arc, the angles it turned in training, and an orange hand at the end of that arc, where the training length takes it.",
        ),
    ),
    Widget(
        "ScalingPairs", module="part_two", js="scaling_pairs.js", css=("lesson.css", "part_two.css"), demo="demos.scaling_pairs",
        card=GalleryCard(
            "Stretch a real model, pair by pair",
            r"""Pick a model of the atlas, a target length $T = sL$ and a scheme: one bar per pair gives
the turns it makes over $T$ with the scheme's frequencies, the tick on it the turns it made over
the trained length $L$. A slow pair (shaded: under one turn in training) whose bar ends above
its tick shows the model angles it never met; it is drawn orange. The widget asks first which
schemes leave none.""",
            r"Qwen2.5 7B (trained to 32 768 tokens) at $4\times$: no scaling leaves all 24 slow pairs beyond "
            r"training (left); NTK-aware still leaves 23 of them, by up to $1.66\times$ (right).",
            "Two bar charts of turns per pair on a log scale, 64 bars falling from about 20 000 turns to 0.01, a "
            "black tick on each bar for its turns in training and a dashed line at one turn. The last 24 pairs are "
            "shaded as slow. Left, without scaling, every shaded bar is orange and four times taller than its tick. "
            "Right, under NTK-aware scaling, the shaded bars are still orange and end a little above their ticks, "
            "except the last one.",
            function="plot_scaling_pairs", left='"qwen2.5-7b", 4, "default"', right='"qwen2.5-7b", 4, "ntk"',
            lesson="A scheme pair by pair: which slow pairs still turn further than they did in training?",
            thumbnail_code="thumbnails.scaling_pairs_thumbnail(ax=ax)",
            thumb_alt="Blue bars, one per pair, falling from left to right on a log scale, a black tick line across them for the turns in training, a dashed line at one turn, and the slow pairs shaded grey on the right.",
        ),
    ),
    Widget(
        "TrainedModelExplorer", module="trained", js="trained_model.js", css=("trained_model.css", "lesson.css"), demo="tinymodel.analysis",
        card=GalleryCard(
            # Its title and text are its docstring's; its thumbnail is the trained model's
            # attention by distance, one row per head.
            lesson="A tiny trained model read at 4× its length: which scheme takes the previous token away "
                   "from its pair-0 head?",
            thumbnail_code=(
                "thumbnails.trained_attention_thumbnail(widgets.TrainedModelExplorer().data['attention']['none']['64'], "
                "ax=ax)"),
            thumb_alt="A grid of coloured cells, one row per head of the trained model and one column per distance, "
                      "bright where a head looks.",
        ),
        # Its print figure is the chapter's figure of the same heads.
        print_figure=("11-train-a-tiny-model", "fig-15-heads"),
    ),
    Widget(
        "KVCacheTimeline", module="part_two", js="kv_cache_timeline.js", css=("lesson.css", "part_two.css"), demo="demos.kv_cache",
        card=GalleryCard(
            "Evict from a KV cache",
            r"""A cache of capacity 8 holds keys after RoPE. Step through the prefill of a 5-token prompt,
three decode steps, the eviction of the 3 oldest tokens with the rest renumbered from 0, and
three more decode steps. Each slot's dial shows pair 0 of the cached key (solid) and of the key a
fresh pass would give at the token's position now (dashed). The widget asks first what the cache
must do to the keys it keeps.""",
            r"The cache right after the eviction, before anything is done to the kept keys (left): each was "
            r"rotated for a position 3 higher than its token now has, and the next query's scores are off by "
            r"up to 0.53. After one rotation by $-3$ (right) each solid hand lies on its dashed one and the "
            r"error is 0.",
            "Two rows of eight slots. Left, five slots labelled t3 to t7 with orange borders, each holding a dial "
            "whose solid green hand points away from its dashed hand, and the numbers 3 / 0 to 7 / 4 under them; "
            "three empty slots. Right, the same five tokens with grey borders, each solid hand on its dashed hand, "
            "and 0 / 0 to 4 / 4.",
            function="plot_kv_cache", left="4", right="5",
            lesson="Evict the oldest tokens and renumber the rest: what must happen to the keys the cache keeps?",
            thumbnail_code="thumbnails.kv_cache_thumbnail(ax=ax)",
            thumb_alt="Eight cache slots in two rows: five hold a dial with a solid green hand and a dashed grey hand, three are empty.",
        ),
    ),
)


def entry(name):
    """The :class:`Widget` entry of the widget class called ``name``."""
    for widget in WIDGETS:
        if widget.name == name:
            return widget
    raise KeyError(f"name: {name!r} is not a widget of rope_core.widgets.registry.WIDGETS "
                   f"({', '.join(widget.name for widget in WIDGETS)})")
