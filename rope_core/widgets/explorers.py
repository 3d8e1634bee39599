"""The seven widgets of the book. Each computes its table with ``rope_core``; see ``_base``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import traitlets

from .. import (
    atlas,
)
from .._checks import check_dim
from ..demos.candidates import (
    CANDIDATE_ALGEBRA,
    CANDIDATE_DEFAULTS,
    CANDIDATE_LENGTH_RANGE,
    CANDIDATE_MORE_CONTENTS,
    CANDIDATE_PARAMETERS,
    CANDIDATES,
    candidate_meets_wish,
    candidate_table,
)
from ..demos.context import (
    BAND_NAMES,
    CONTEXT_DEFAULTS,
    CONTEXT_STEPS,
    DEFAULT_MODEL,
    EXTENSION_METHODS,
    context_extension_table,
    model_spectrum_table,
    octave_positions,
)
from ..demos.context import (
    slow_pairs_beyond_training as slow_pairs_beyond_training,  # announced here first
)
from ..demos.context import trained_frequencies as trained_frequencies  # announced here first
from ..demos.decay import (
    CONTENT_MIXES,
    DECAY_DEFAULTS,
    content_pair_table,
    decay_table,
    random_pairs_magnitude,
)
from ..demos.rotation import (
    RELATIVE_DEFAULTS,
    ROTATION_DEFAULTS,
    check_angle_deg,
    check_length,
    check_length_range,
    relative_state,
    relative_strips,
    rotation_state,
    rotation_table,
    unit_vector,
)
from ..demos.spectrum import (
    clock_positions,
    clock_table,
    layout_scores,
    layout_sentence_attention,
    layout_table,
    matrix_table,
    position_digits,
)
from ._base import (
    RopeWidget,
    SliderError,
    check_choices,
    check_max_position,
    exact,
    module,
    table,
)

_CONTEXT_CSS = (Path(__file__).parent / "context.css").read_text()
_SPECTRUM_CSS = (Path(__file__).parent / "spectrum.css").read_text()
# The lesson line, the question and the step buttons of the teaching widgets (lesson.js) and
# their styles, shared by those widgets.
_LESSON_CSS = (Path(__file__).parent / "lesson.css").read_text()


class _Degrees(traitlets.Float):
    """A direction in degrees: a float, never a bool (``True`` is not 1°); wrapped by the widget."""

    def validate(self, obj, value):
        if isinstance(value, bool):
            self.error(obj, value)
        return super().validate(obj, value)


class _Real(traitlets.Float):
    """A float trait that refuses bools (``True`` is not a length); range checked by the widget."""

    def validate(self, obj, value):
        if isinstance(value, bool):
            self.error(obj, value)
        return super().validate(obj, value)


class RotationExplorer(RopeWidget):
    r"""A vector :math:`q` and its rotation :math:`R(m\theta)\,q`: drag :math:`q` on the drawing
    (or turn it with the arrow keys), move the position :math:`m`, the frequency :math:`\theta`
    and the length of :math:`q`, or press play to watch :math:`m` advance.

    The tip of :math:`q` follows the pointer: its direction (the synced float trait ``q_angle``,
    degrees) and its length (``q_length``, clamped to ``length_range``; the "length of q"
    slider's stops ``lengths`` set it too) are continuous, so the page rotates :math:`q` itself
    with :math:`\cos m\theta`, :math:`\sin m\theta`; ``state()`` gives the same numbers from
    rope_core (``rope_core.demos.rotation``). A faint grid of the plane turns by
    :math:`m\theta` with it, and pointing at (or focusing) an entry of the printed matrix draws
    the leg of its column's arrow that the entry is: :math:`R e_0 = (\cos m\theta, \sin m\theta)`
    and :math:`R e_1 = (-\sin m\theta, \cos m\theta)`, each a walk along :math:`x`, then
    along :math:`y`.

    Under it a second question takes two positions :math:`a` (a query's) and :math:`b` (a
    key's), the synced traits ``a_position`` and ``b_position``: it draws
    :math:`R(a\theta)\,q` and :math:`R(b\theta)\,q`, and after the reader's prediction the
    product :math:`R(a\theta)^\top R(b\theta) = R((b - a)\theta)` (2×2), which the page
    multiplies out, with the angle between the two arrows. Dragging a tip moves :math:`a` or
    :math:`b`; the grip between them moves both by the same number of positions.

    Parameters
    ----------
    thetas : sequence of float
        Frequency choices :math:`\theta` (radians per position).
    max_position : int
        The position slider goes from 0 to this value.
    q_angles_deg : sequence of float
        Preset directions of :math:`q` for the page's "angle of q" slider, in degrees.
    lengths : sequence of float
        Length stops for :math:`q` (the page's "length of q" slider).
    length_range : (float, float)
        Lowest and highest length a drag gives :math:`q` (widened to hold every stop).
    """

    _esm = module("rotation_explorer")
    _css = _LESSON_CSS
    _sliders = {"position": lambda w: w._max_position + 1, "theta_index": lambda w: len(w._thetas),
                "length_index": lambda w: len(w._lengths), "a_position": lambda w: w._max_position + 1,
                "b_position": lambda w: w._max_position + 1}
    position = traitlets.Int(ROTATION_DEFAULTS["position"]).tag(sync=True)
    theta_index = traitlets.Int(ROTATION_DEFAULTS["theta_index"]).tag(sync=True)
    length_index = traitlets.Int(ROTATION_DEFAULTS["length_index"]).tag(sync=True)
    q_angle = _Degrees(ROTATION_DEFAULTS["q_angle"]).tag(sync=True)
    q_length = _Real(ROTATION_DEFAULTS["lengths"][ROTATION_DEFAULTS["length_index"]]).tag(sync=True)
    # The second question's query and key positions: 3 apart to start.
    a_position = traitlets.Int(2).tag(sync=True)
    b_position = traitlets.Int(5).tag(sync=True)

    def __init__(self, thetas=ROTATION_DEFAULTS["thetas"], max_position=ROTATION_DEFAULTS["max_position"],
                 q_angles_deg=ROTATION_DEFAULTS["q_angles_deg"], lengths=ROTATION_DEFAULTS["lengths"],
                 length_range=ROTATION_DEFAULTS["length_range"], **kwargs):
        self._thetas = check_choices(thetas, "thetas")
        self._max_position = check_max_position(max_position, upper=256)
        self._q_angles = check_choices(q_angles_deg, "q_angles_deg", positive=False)
        self._lengths = check_choices(lengths, "lengths")
        lo, hi = check_length_range(length_range)
        self._length_range = (min(lo, *self._lengths), max(hi, *self._lengths))
        self._fit_default_indices(kwargs, position=self._max_position + 1, theta_index=len(self._thetas),
                                  length_index=len(self._lengths), a_position=self._max_position + 1,
                                  b_position=self._max_position + 1)
        q_length = kwargs.pop("q_length", None)
        super().__init__(**kwargs)
        # After the length stop (whose observer sets q_length), so a given q_length wins.
        self.q_length = self._lengths[self.length_index] if q_length is None else q_length
        self.data = self._compute()

    @traitlets.observe("length_index")
    def _length_stop(self, change):
        self.q_length = self._lengths[change["new"]]

    @traitlets.validate("q_length")
    def _check_q_length(self, proposal):
        try:
            return check_length(proposal["value"], "RotationExplorer.q_length", self._length_range)
        except ValueError as error:
            raise SliderError(str(error)) from None

    @traitlets.validate("q_angle")
    def _check_q_angle(self, proposal):
        try:
            return check_angle_deg(proposal["value"], "RotationExplorer.q_angle")
        except ValueError as error:
            raise SliderError(str(error)) from None

    def _compute(self):
        tables = rotation_table(self._thetas, self._max_position)
        closest, closest_offset = tables.pop("closest"), tables.pop("closest_offset")
        offset = tables.pop("offset")   # the page needs it only where the question's answer quotes it
        return {
            "thetas": self._thetas, "positions": list(range(self._max_position + 1)),
            "q_angles_deg": self._q_angles, "lengths": self._lengths, "length_range": self._length_range,
            **{name: table(values) for name, values in tables.items()},
            # The closest return so far, as the positions where it changes: [[j, offset], ...] per θ
            # (the page takes the last j <= m; a table per position would be 30x larger).
            "returns": [[[int(j), round(float(closest_offset[t][j]), 6)] for j in np.flatnonzero(np.diff(row, prepend=-1))
                         if row[j] >= 0] for t, row in enumerate(closest)],
            # The chapter's question, answered by the table: the first position past half a turn
            # back within 0.1 rad of q (None: not on the slider), and the whole number nearest 2π/θ.
            **self._question(tables["angle"], offset),
        }

    def _question(self, angle, offset):
        """The chapter's question, answered by the table: for each θ the first position past half
        a turn back within 0.1 rad of q (None: not on the slider) and the whole number nearest
        2π/θ (None past the slider), with their offsets from q."""
        first = [next((j for j in range(self._max_position + 1) if angle[t][j] > np.pi and offset[t][j] < 0.1), None)
                 for t in range(len(self._thetas))]
        nearest = [int(round(2 * np.pi / theta)) for theta in self._thetas]
        at = lambda t, j: None if j is None or j > self._max_position else round(float(offset[t][j]), 6)  # noqa: E731
        return {"first_return": first, "first_return_offset": [at(t, j) for t, j in enumerate(first)],
                "nearest_turn": nearest, "nearest_turn_offset": [at(t, j) for t, j in enumerate(nearest)]}

    def state(self):
        """What the page shows now, from rope_core: ``demos.rotation.rotation_state``."""
        q = self.q_length * unit_vector(self.q_angle)
        return rotation_state(q, self.position, self._thetas[self.theta_index])


class CandidateExplorer(RopeWidget):
    r"""The wish of chapter 4 as a picture: pick a candidate encoding :math:`f(q, m)` and watch
    the score matrix :math:`S_{mn} = \operatorname{Re}[f(q, m)\,\overline{f(k, n)}]` over the
    positions :math:`m, n` become Toeplitz (constant along every diagonal :math:`n - m`) or not.

    A slider picks a diagonal :math:`n - m`, drawn beside the matrix as the score against
    :math:`m` (flat exactly when the diagonal is constant); a toggle shows the imaginary part of
    the product instead, which the complex wish also asks to depend on :math:`n - m` only (the
    parity candidate passes the real wish and fails this one). The wish must hold for every
    content: the reader drags the tips of :math:`q` and :math:`k` (the synced trait
    ``content`` :math:`= [\operatorname{Re} q, \operatorname{Im} q, \operatorname{Re} k,
    \operatorname{Im} k]`, lengths in :data:`~rope_core.demos.candidates.CANDIDATE_LENGTH_RANGE`),
    or a button steps through a few contents (``content_index``, which sets ``content``). The page
    computes every candidate's matrix itself from its formula, the content and the parameters
    :data:`~rope_core.demos.candidates.CANDIDATE_PARAMETERS` sent here; ``state()`` gives the same
    numbers from :func:`rope_core.demos.candidates.candidate_table`. Once the reader has
    predicted, the candidate shown gets its one line of algebra
    (:data:`rope_core.demos.candidates.CANDIDATE_ALGEBRA`).

    Parameters
    ----------
    q, k : complex
        The query and the key, as complex numbers (the first content).
    more_contents : sequence of (complex, complex)
        Further contents :math:`(q, k)` the button steps through.
    theta : float
        Angle per position of the candidates that turn.
    size : int
        Positions :math:`0 \dots` ``size`` − 1 on each axis (2 to 24).
    """

    _esm = module("candidate_explorer")
    _css = _LESSON_CSS
    _sliders = {"candidate_index": lambda w: len(CANDIDATES), "part_index": lambda w: 2,
                "diagonal_index": lambda w: 2 * w._size - 1, "content_index": lambda w: len(w._contents)}
    candidate_index = traitlets.Int(0).tag(sync=True)
    part_index = traitlets.Int(0).tag(sync=True)
    diagonal_index = traitlets.Int(CANDIDATE_DEFAULTS["size"] - 1 + 3).tag(sync=True)
    content_index = traitlets.Int(0).tag(sync=True)
    content = traitlets.List(traitlets.Float(), minlen=4, maxlen=4, default_value=[
        CANDIDATE_DEFAULTS["q"].real, CANDIDATE_DEFAULTS["q"].imag, CANDIDATE_DEFAULTS["k"].real, CANDIDATE_DEFAULTS["k"].imag,
    ]).tag(sync=True)

    def __init__(self, q=CANDIDATE_DEFAULTS["q"], k=CANDIDATE_DEFAULTS["k"], theta=CANDIDATE_DEFAULTS["theta"],
                 size=CANDIDATE_DEFAULTS["size"], more_contents=CANDIDATE_MORE_CONTENTS, **kwargs):
        self._size = check_max_position(size, "size", upper=24)
        if self._size < 2:
            raise ValueError(f"size must be an integer in [2, 24], got {size!r}")
        try:
            contents = [(q, k), *[tuple(pair) for pair in more_contents]]
        except TypeError:
            raise ValueError(f"more_contents must be a sequence of (q, k) pairs, got {more_contents!r}") from None
        if any(len(pair) != 2 for pair in contents):
            raise ValueError(f"more_contents must be a sequence of (q, k) pairs, got {more_contents!r}")
        # candidate_table checks each q and k (finite complex numbers) and theta.
        self._tables = [candidate_table(cq, ck, theta, self._size) for cq, ck in contents]
        self._contents = [[t["q"].real, t["q"].imag, t["k"].real, t["k"].imag] for t in self._tables]
        self._theta = self._tables[0]["theta"]
        if "diagonal_index" not in kwargs:
            kwargs["diagonal_index"] = self._size - 1 + min(3, self._size - 1)
        content = kwargs.pop("content", None)
        super().__init__(**kwargs)
        self.content = list(self._contents[self.content_index]) if content is None else content
        self.data = self._compute()

    @traitlets.validate("content")
    def _check_content(self, proposal):
        values = proposal["value"]
        if not all(np.isfinite(v) for v in values):
            raise traitlets.TraitError(f"content must be four finite numbers (Re q, Im q, Re k, Im k), got {values!r}")
        return values

    @traitlets.observe("content_index")
    def _content_from_index(self, change):
        # A step of the button puts its preset content (q, k) on the page.
        self.content = list(self._contents[change["new"]])

    def _compute(self):
        t = self._tables[0]
        return {
            "names": t["names"], "formulas": [CANDIDATES[name][0] for name in t["names"]],
            "ideas": [CANDIDATES[name][1] for name in t["names"]],
            "algebra": [CANDIDATE_ALGEBRA[name] for name in t["names"]],
            "positions": t["positions"].tolist(), "offsets": t["offsets"].tolist(), "theta": self._theta,
            "contents": [[round(v, 6) for v in c] for c in self._contents],
            "parameters": dict(CANDIDATE_PARAMETERS), "length_range": list(CANDIDATE_LENGTH_RANGE),
            # Whether each candidate keeps every diagonal constant for every content (rope_core
            # tries random ones): the answer the prediction is checked against.
            "meets_wish": [candidate_meets_wish(name, self._theta, self._size) for name in t["names"]],
        }

    def state(self):
        """The matrix and diagonal the page shows now, from rope_core: ``demos.candidates``."""
        qr, qi, kr, ki = self.content
        shown = candidate_table(complex(qr, qi), complex(kr, ki), self._theta, self._size)
        name = shown["names"][self.candidate_index]
        part = ("real", "imag")[self.part_index]
        offset = int(shown["offsets"][self.diagonal_index])
        matrix = shown[name][part]
        return {"name": name, "part": part, "matrix": matrix, "offset": offset,
                "diagonal": np.diagonal(matrix, offset=offset), "spreads": shown[name][f"{part}_spread"]}


class RelativeInvariance(RopeWidget):
    r"""Two vectors at positions :math:`m` and :math:`n`, and a shift :math:`\Delta` of both:
    the score :math:`\langle R_{m+\Delta} q, R_{n+\Delta} k\rangle` stays put while the drawing
    turns. It opens shifted, with the state before the shift (:math:`\Delta = 0`) as labelled
    dashed ghosts, the angle :math:`\gamma` between each pair as an arc, each pair's projection
    of :math:`k` on the line of :math:`q` (the score is :math:`|q|` times its signed length
    :math:`|k|\cos\gamma`), and two strip charts: the score against :math:`\Delta` (flat) and
    against :math:`n - m` (a cosine), with moving dots. A sentence strip above the drawing puts
    the two words ("dog" for :math:`q`, "man" for :math:`k`) at :math:`m, n` and, after
    :math:`\Delta` tokens are put in front, at :math:`m + \Delta, n + \Delta`; the end of its
    :math:`\Delta` bracket and the end of its :math:`n - m` bracket are drag targets of their
    own. Below the drawing both pairs are drawn again, turned so that :math:`q` points right,
    side by side: the same :math:`\gamma` and the same projection. Drag :math:`q` or :math:`k`
    on the drawing (or turn them with the arrow keys), or press play to watch :math:`\Delta`
    advance.

    Their tips follow the pointer: directions are the synced float traits ``q_angle`` and
    ``k_angle`` (degrees), lengths ``q_length`` and ``k_length`` (clamped to ``length_range``),
    so the reader sees the rotation keep each length while the score scales with both; the page
    rotates them itself; ``state()`` and ``strips()`` give the same numbers from rope_core
    (``rope_core.demos.rotation.relative_state`` and ``relative_strips``).

    Parameters
    ----------
    q_angle_deg, k_angle_deg : float
        Starting directions of :math:`q` and :math:`k`, in degrees.
    q_length, k_length : float
        Their starting lengths (inside ``length_range``).
    length_range : (float, float)
        Lowest and highest length a drag gives :math:`q` or :math:`k`.
    theta : float
        Frequency of the single 2-D pair.
    max_position : int
        Range of the ``m``, ``n`` and shift sliders (each 0 .. max_position).
    compact : bool
        Only the drawing, the shift slider, play and the score-against-:math:`\Delta` strip
        (for a first encounter, before the positions are introduced one by one).
    """

    _esm = module("relative_invariance")
    _css = _LESSON_CSS
    _sliders = {name: (lambda w: w._max_position + 1) for name in ("m", "n", "shift")}
    m = traitlets.Int(RELATIVE_DEFAULTS["m"]).tag(sync=True)
    n = traitlets.Int(RELATIVE_DEFAULTS["n"]).tag(sync=True)
    shift = traitlets.Int(RELATIVE_DEFAULTS["shift"]).tag(sync=True)
    q_angle = _Degrees(RELATIVE_DEFAULTS["q_angle"]).tag(sync=True)
    k_angle = _Degrees(RELATIVE_DEFAULTS["k_angle"]).tag(sync=True)
    q_length = _Real(RELATIVE_DEFAULTS["q_length"]).tag(sync=True)
    k_length = _Real(RELATIVE_DEFAULTS["k_length"]).tag(sync=True)

    def __init__(self, q_angle_deg=RELATIVE_DEFAULTS["q_angle"], k_angle_deg=RELATIVE_DEFAULTS["k_angle"],
                 q_length=RELATIVE_DEFAULTS["q_length"], k_length=RELATIVE_DEFAULTS["k_length"],
                 theta=RELATIVE_DEFAULTS["theta"], max_position=RELATIVE_DEFAULTS["max_position"],
                 length_range=RELATIVE_DEFAULTS["length_range"], compact=False, **kwargs):
        kwargs.setdefault("q_angle", check_choices([q_angle_deg], "q_angle_deg", positive=False)[0])
        kwargs.setdefault("k_angle", check_choices([k_angle_deg], "k_angle_deg", positive=False)[0])
        lo, hi = check_length_range(length_range)
        self._length_range = (lo, hi)
        kwargs.setdefault("q_length", check_length(q_length, "q_length", self._length_range))
        kwargs.setdefault("k_length", check_length(k_length, "k_length", self._length_range))
        self._theta = check_choices([theta], "theta")[0]
        self._max_position = check_max_position(max_position, upper=128)
        if not isinstance(compact, bool):
            raise TypeError(f"compact must be True or False, got {compact!r}")
        self._fit_default_indices(kwargs, m=self._max_position + 1, n=self._max_position + 1,
                                  shift=self._max_position + 1)
        super().__init__(**kwargs)
        self.data = {"theta": self._theta, "max_position": self._max_position, "length_range": self._length_range,
                     "compact": compact}

    @traitlets.validate("q_length", "k_length")
    def _check_lengths(self, proposal):
        try:
            return check_length(proposal["value"], f"RelativeInvariance.{proposal['trait'].name}", self._length_range)
        except ValueError as error:
            raise SliderError(str(error)) from None

    @traitlets.validate("q_angle", "k_angle")
    def _check_angles(self, proposal):
        try:
            return check_angle_deg(proposal["value"], f"RelativeInvariance.{proposal['trait'].name}")
        except ValueError as error:
            raise SliderError(str(error)) from None

    @property
    def _q(self):
        return self.q_length * unit_vector(self.q_angle)

    @property
    def _k(self):
        return self.k_length * unit_vector(self.k_angle)

    def state(self):
        """What the page shows now, from rope_core: ``demos.rotation.relative_state``."""
        return relative_state(self._q, self._k, self.m, self.n, self.shift, self._theta)

    def strips(self):
        """The strip charts the page draws now, from rope_core: ``demos.rotation.relative_strips``."""
        return relative_strips(self._q, self._k, self.m, self.n, self._theta, self._max_position)


class FrequencyClocks(RopeWidget):
    r"""The :math:`d/2` pairs as clock hands at angles :math:`m\theta_i`, with the turns each
    has made, the wavelengths against the context :math:`L`, and an odometer whose wheel
    :math:`i` shows digit :math:`\lfloor m/\beta^i\rfloor \bmod \beta` of :math:`m`
    (:math:`\beta = b^{2/d}`; whole digits when :math:`\beta` is a whole number). It opens on
    chapter 5's toy head, :math:`d = 8` at :math:`b = 10^4`, where :math:`\beta = 10`: hand
    :math:`i` turns :math:`m/10^i` radians and the wheels spell :math:`m` in decimal; a button
    brings that head back after the reader has changed :math:`d` or the base.

    The page asks one question: when :math:`m` reaches :math:`L`, how many hands have made a
    full turn? (Those with :math:`\lambda_i \le L`; the others are drawn grey and dashed.) A
    time-lapse runs :math:`m` on a logarithmic clock, about 1 token per second at the start
    and :math:`10^4` near :math:`m = 10^5`.

    Parameters
    ----------
    dims : sequence of int
        Dimension choices (even).
    bases : sequence of float
        Base choices (the slider is logarithmic when they are).
    contexts : sequence of int
        Context lengths; pairs whose wavelength exceeds the chosen one are marked: they do not
        complete a turn within the context.
    max_position : int
        The position slider goes from 0 to this value (at most :math:`10^6`): every position up
        to 64, then log-spaced stops (:func:`rope_core.demos.spectrum.clock_positions`), so the
        slow hands move too. A play button steps through them.

    Notes
    -----
    Python sends :math:`\theta_i` (unrounded), :math:`\lambda_i` and the context marks from
    :func:`rope_core.demos.spectrum.clock_table`; the page draws each hand at
    :math:`m\theta_i \bmod 2\pi` (one multiplication, checked against that table in the
    browser tests), and each odometer digit as :func:`rope_core.demos.spectrum.position_digits`
    does, with the :math:`\beta` it sends (snapped to a whole number when it is one). In a live
    kernel, assigning new ``dims`` or ``bases`` recomputes the table with ``rope_core`` (any
    value, not only the precomputed ones).
    """

    _esm = module("frequency_clocks")
    _css = _SPECTRUM_CSS
    _sliders = {"position": lambda w: len(w._positions), "context_index": lambda w: len(w._contexts),
                "dim_index": lambda w: len(w.dims), "base_index": lambda w: len(w.bases)}
    dims = traitlets.List(traitlets.Int()).tag(sync=True)
    bases = traitlets.List(traitlets.Float()).tag(sync=True)
    # Chapter 5's toy head, d = 8 at base 10^4: beta = 10, so hand i turns m/10^i and the
    # odometer spells m in decimal. Context 256 and m = 10: the fast hands have turned, the slow
    # ones barely, and the question (how many turn by m = L?) is still open.
    dim_index = traitlets.Int(0).tag(sync=True)
    base_index = traitlets.Int(2).tag(sync=True)
    context_index = traitlets.Int(2).tag(sync=True)
    position = traitlets.Int(10).tag(sync=True)

    def __init__(self, dims=(8, 16, 32), bases=(1e2, 1e3, 1e4, 1e5, 1e6),
                 contexts=(16, 64, 256, 1024, 4096), max_position=100_000, **kwargs):
        self._contexts = check_choices(contexts, "contexts", integer=True)
        self._max_position = check_max_position(max_position, upper=10**6)
        # Every context length is a stop: the question asks about m = L.
        self._positions = clock_positions(self._max_position, include=self._contexts)
        dims, bases = self._checked_dims(dims), self._checked_bases(bases)
        self._fit_default_indices(kwargs, position=len(self._positions), context_index=len(self._contexts),
                                  dim_index=len(dims), base_index=len(bases))
        super().__init__(dims=dims, bases=bases, **kwargs)
        self._recompute()

    @staticmethod
    def _checked_dims(dims):
        dims = [check_dim(d, "dims") for d in check_choices(dims, "dims", integer=True)]
        if any(d > 64 for d in dims):
            raise SliderError(f"dims must be at most 64 (32 clocks), got {dims}")
        return dims

    @staticmethod
    def _checked_bases(bases):
        return check_choices(bases, "bases")

    @traitlets.validate("dims", "bases")
    def _validate_choices(self, proposal):
        # Checked on every change too: dims = [256] (a 450 KB state) or bases = [] is refused
        # and the widget keeps its table.
        name = proposal["trait"].name
        try:
            return (self._checked_dims if name == "dims" else self._checked_bases)(proposal["value"])
        except (TypeError, ValueError) as error:
            raise SliderError(f"FrequencyClocks.{error}") from None

    @traitlets.observe("dims", "bases")
    def _on_choices(self, change):
        if self.data:  # after __init__; a kernel user changed the choices
            self._recompute()

    def _recompute(self):
        self.dim_index = min(self.dim_index, len(self.dims) - 1)
        self.base_index = min(self.base_index, len(self.bases) - 1)
        per_dim = []
        for dim in self.dims:
            per_base = []
            for base in self.bases:
                clocks = clock_table(dim, base, [0], self._contexts)
                per_base.append({"theta": exact(clocks["theta"]), "wavelength": exact(clocks["wavelength"]),
                                 "beta": clocks["beta"], "digit_base": position_digits([0], dim, base)[1],
                                 "beyond_context": clocks["beyond_context"].tolist()})
            per_dim.append(per_base)
        self.data = {"dims": list(self.dims), "bases": list(self.bases), "contexts": self._contexts,
                     "positions": self._positions.tolist(), "tables": per_dim}


class RotationMatrixHeatmap(RopeWidget):
    r"""The :math:`d \times d` matrix :math:`R^d_{\Theta,m}` as a heat map of its 2 × 2 blocks,
    times a vector :math:`x` whose pairs all start at :math:`(1, 0)`: inside each block an arrow
    and an arc turned by :math:`m\theta_i \bmod 2\pi`, and beside it a dial with that pair of
    :math:`x` (grey) and of :math:`R_m x` (blue). The page asks first which blocks are still
    nearly the identity at the question's position (:math:`m = 32`); play runs :math:`m`
    smoothly and halts there, and runs on to the last position when pressed again, so the
    reader can go far enough along for the slow blocks to turn too
    (:math:`m\theta_3 = 1` rad needs :math:`m = 1000` at :math:`d = 8`, :math:`b = 10^4`).

    Parameters
    ----------
    dims : sequence of int
        Dimension choices (even, at most 32).
    bases : sequence of float
        Base stops of the base slider; by default 51 stops, ten a decade, from
        :math:`10` to :math:`10^6` (:math:`10^{k/10}`), so 100 and 10 000 are stops exactly.
    max_position : int
        The position slider goes from 0 to this value (at most :math:`10^5`): every position
        up to 64, then log-spaced stops (:func:`rope_core.demos.spectrum.clock_positions`),
        with every power of two and the question's position among them.
    question_position : int or None
        The :math:`m` the question asks about, a stop of the slider in :math:`[1,`
        ``max_position``:math:`]`; ``None`` means :math:`\min(32,` ``max_position``:math:`)`.
        The verdict is judged at this :math:`m` wherever the slider is.

    Notes
    -----
    For each :math:`d` and base, Python sends :math:`\theta_i` (unrounded) and :math:`\lambda_i`
    from :func:`rope_core.demos.spectrum.matrix_table`, and where each block entry sits (its
    ``rows``, ``cols``) and :math:`x`; the page draws the block of pair :math:`i` at any real
    :math:`m` as

    .. math:: R(m\theta_i) = \begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\
              \sin m\theta_i & \cos m\theta_i \end{pmatrix},

    which is what lets play run :math:`m` between whole positions. Hovering or focusing a cell
    shows its value, :math:`m\theta_i` and :math:`\lambda_i` and outlines its block.
    """

    _esm = module("rotation_matrix_heatmap")
    _css = _SPECTRUM_CSS
    _sliders = {"dim_index": lambda w: len(w._dims), "base_index": lambda w: len(w._bases),
                "position": lambda w: len(w._positions), "pair": lambda w: min(w._dims) // 2}
    dim_index = traitlets.Int(1).tag(sync=True)
    base_index = traitlets.Int(30).tag(sync=True)  # __init__ picks the stop 10 000 when there is one
    position = traitlets.Int(1).tag(sync=True)
    pair = traitlets.Int(0).tag(sync=True)

    #: The default base stops: 10^(k/10) for k = 10 ... 60 (10^2.0 and 10^4.0 are exact floats).
    DEFAULT_BASES = tuple(10.0 ** (k / 10) for k in range(10, 61))

    def __init__(self, dims=(4, 8, 16), bases=DEFAULT_BASES, max_position=4096, question_position=None, **kwargs):
        self._dims = [check_dim(d, "dims") for d in check_choices(dims, "dims", integer=True)]
        if max(self._dims) > 32:
            raise ValueError(f"dims must be at most 32 to stay readable, got {self._dims}")
        self._bases = check_choices(bases, "bases")
        self._max_position = check_max_position(max_position, upper=10**5)
        if question_position is None:
            question_position = min(32, self._max_position)
        self._question = check_max_position(question_position, "question_position", upper=self._max_position)
        # One stop per token up to 64, then log steps; the question's m and the powers of two
        # are stops, so the slider lands on them exactly.
        powers = [2**k for k in range(self._max_position.bit_length())]
        self._positions = clock_positions(self._max_position, include=[self._question, *powers])
        if "base_index" not in kwargs and 10000.0 in self._bases:
            kwargs["base_index"] = self._bases.index(10000.0)
        self._fit_default_indices(kwargs, dim_index=len(self._dims), base_index=len(self._bases),
                                  position=len(self._positions), pair=min(self._dims) // 2)
        super().__init__(**kwargs)
        self.data = self._compute()

    def _compute(self):
        # Per d: where the block entries sit and x; per d and base: theta and lambda only (the
        # page turns each block by m * theta_i, at whole m and between them while playing).
        layouts, tables = [], []
        for dim in self._dims:
            per_base = [matrix_table(dim, base, [0]) for base in self._bases]
            t = per_base[0]
            layouts.append({"rows": t["rows"].tolist(), "cols": t["cols"].tolist(), "x": table(t["x"])})
            tables.append([{"theta": exact(t["theta"]), "wavelength": table(t["wavelength"])}
                           for t in per_base])
        return {"dims": self._dims, "bases": self._bases,
                "positions": self._positions.tolist(), "question": self._question,
                "layouts": layouts, "tables": tables}


class DecayExplorer(RopeWidget):
    r"""One query/key pair's score against distance under RoFormer's bound on it, from aligned to
    random content, for a base.

    The pair is :math:`q = (1, \dots, 1)` and :math:`k(w) = \sqrt{1-w}\,q + \sqrt{w}\,\varepsilon`
    (:func:`rope_core.demos.decay.content_pair_table`): :math:`w = 0` is the aligned pair
    :math:`k = q`, whose bound is :math:`B(r) = \frac{1}{d/2}\sum_j |S_j(r)|` (32.5 at
    :math:`r = 0` for :math:`d = 128`), and :math:`w = 1` a random key. Every curve is
    :math:`|\text{score}| / (|q|\,|k|)` or the bound on it, on one logarithmic axis. The page
    asks whether a random pair's score falls with distance as its bound does, and draws the
    score only up to the distance the reader has chosen. After the prediction a toggle adds
    ``samples`` random pairs (:func:`rope_core.demos.decay.random_pairs_magnitude`: the 10th to
    90th percentile of :math:`|\text{score}|` and the median bound). Under it one line gives
    :math:`B(r)` at the chosen distance against the base, with its average over :math:`0 \dots r`.

    Parameters
    ----------
    dim : int
    bases : sequence of float
    max_distance : int
    step : int
        Curves are drawn at distances ``0, step, 2 step, ..., max_distance``.
    seed : int
        Seed of the pair's random key and of the random pairs.
    samples : int
        Number of random pairs.
    correlation : float
        Feature correlation of :func:`rope_core.demos.decay.decay_table`'s correlated band,
        which the widget does not draw.
    slider_step : int
        The distance slider (and a drag along the plot) stops every ``slider_step`` tokens, a
        multiple of ``step``.
    """

    _esm = module("decay_explorer")
    _css = _CONTEXT_CSS + _LESSON_CSS
    _sliders = {"base_index": lambda w: len(w._bases), "distance_index": lambda w: len(w._stops),
                "content_index": lambda w: len(CONTENT_MIXES)}
    base_index = traitlets.Int(2).tag(sync=True)
    distance_index = traitlets.Int(0).tag(sync=True)   # r = 0: the curve is the reader's to draw
    content_index = traitlets.Int(0).tag(sync=True)    # the aligned pair first

    def __init__(self, dim=DECAY_DEFAULTS["dim"], bases=DECAY_DEFAULTS["bases"],
                 max_distance=DECAY_DEFAULTS["max_distance"], step=DECAY_DEFAULTS["step"],
                 seed=DECAY_DEFAULTS["seed"], samples=DECAY_DEFAULTS["samples"],
                 correlation=DECAY_DEFAULTS["correlation"], slider_step=16, **kwargs):
        self._dim = check_dim(dim)
        self._bases = check_choices(bases, "bases")
        self._max_distance = check_max_position(max_distance, "max_distance", upper=65536)
        self._step = check_max_position(step, "step", upper=self._max_distance)
        slider_step = check_max_position(slider_step, "slider_step", upper=self._max_distance)
        if slider_step % self._step:
            raise ValueError(f"slider_step must be a multiple of step ({self._step}), got {slider_step}")
        self._seed, self._samples, self._correlation = seed, samples, correlation
        distances = np.arange(0, self._max_distance + 1, self._step)
        self._stops = list(range(0, distances.size, slider_step // self._step))
        self._fit_default_indices(kwargs, base_index=len(self._bases), distance_index=len(self._stops),
                                  content_index=len(CONTENT_MIXES))
        super().__init__(**kwargs)
        self.data = self._compute()

    def _compute(self):
        t = decay_table(self._dim, self._bases, self._max_distance, self._step, self._seed, self._samples,
                        self._correlation)
        pair = content_pair_table(self._dim, self._bases, self._max_distance, self._step, self._seed)
        crowd = random_pairs_magnitude(self._dim, self._bases, self._max_distance, self._step, self._seed,
                                       self._samples)
        # B(r) to 4 decimals; the pair's and the random pairs' cosines to 3 significant digits,
        # as the page shows them (random scores are mostly below 0.1), their bounds (all above
        # 1) to 2 decimals. B(r)'s average only where r stops.
        series = [{"bound": table(t["bound"][b], 4),
                   "bound_average": table(t["bound_average"][b][self._stops], 4),
                   "pair": {"score": _shown(pair["score"][:, b]), "bound": table(pair["bound"][:, b], 2),
                            "early": table(pair["early"][:, b], 4), "late": table(pair["late"][:, b], 4)},
                   "random": {key: _shown(crowd[key][b]) if key != "bound" else table(crowd[key][b], 2)
                              for key in ("low", "median", "high", "bound")}}
                  for b in range(len(self._bases))]
        return {"dim": self._dim, "bases": self._bases, "distances": t["distances"].tolist(), "stops": self._stops,
                "mixes": list(CONTENT_MIXES), "samples": t["samples"], "series": series}


class ContextExtension(RopeWidget):
    r"""Context extension in the chapter's steps: the problem, dividing every frequency, keeping
    the fast pairs, and real models.

    A pair is *slow* when it completes less than one turn over the training length,
    :math:`L\,\theta_i < 2\pi`; the largest angle it reached in training is then
    :math:`L\,\theta_i`. At position :math:`p` with scaled frequencies :math:`\theta'_i` it
    is beyond training when :math:`p\,\theta'_i > L\,\theta_i`.

    The page shows one step at a time (tabs, the synced trait ``step_index``):

    0. *the problem*: one dial per slow pair, its trained arc :math:`[0, L\theta_i]` shaded and
       its hand at :math:`p\theta_i` (no scaling), beside every pair's wavelength;
    1. *divide every frequency*: the same under linear interpolation (PI) and NTK-aware scaling
       with the scale factor :math:`s`;
    2. *keep fast, divide slow*: YaRN and Llama 3.1, their bands (kept ○, blended ◆, scaled ●);
    3. *real models*: any atlas model's spectrum against its training and maximum length, and
       whether it was trained with its scaling (``ModelEntry.scaling_trained``, with the source).

    Each step asks one question and answers it once the reader has done what it asks; the
    numbers of all five schemes sit behind a "numbers" toggle.

    Parameters
    ----------
    dim : int
    base : float
    training_length : int
        The original context :math:`L`.
    factors : sequence of float
        Choices for the scale factor :math:`s` (>= 1).
    position_range : (int, int)
        The first and last position :math:`p` of the slider (default 1 024 and 131 072); the
        last over the first must be a power of two.
    positions_per_octave : int
        Stops of the position slider per doubling of :math:`p` (default 64, so a step moves
        every hand by 1.1 %, and the slider passes as continuously as a pointer can). The stops
        are :math:`p_k = \operatorname{round}(p_0\,2^{k/n})`
        (:func:`rope_core.demos.context.octave_positions`), which the page recomputes from these
        three numbers: every power of two in the range is a stop, so :math:`L` and each
        :math:`sL` are reached exactly. The slider starts at :math:`p = L` when it is a stop.
    models : sequence of str, optional
        Atlas names (:func:`rope_core.atlas.names`) offered in the model menu, each layer type
        with RoPE as its own entry (see ``model_spectrum`` in this module); default every atlas model.
    step : {"problem", "divide", "bands", "models"} or int, optional
        The step shown first (default the problem).

    Notes
    -----
    The page computes what depends on :math:`p` itself, from numbers sent once per scheme and
    factor: pair :math:`i`'s angle over its largest trained angle is
    :math:`p\,r_i` with :math:`r_i = \theta'_i/(L\theta_i)` (``reach_per_token``, shape
    (d/2,)); the slow pairs past their arc are those with :math:`p\,r_i > 1`, and the slowest
    pair has turned :math:`p/\lambda'_{d/2-1}` times. The property ``positions`` lists the stops.
    """

    _esm = module("context_extension")
    _css = _CONTEXT_CSS
    _sliders = {"factor_index": lambda w: len(w._factors), "position_index": lambda w: len(w._positions),
                "scheme_index": lambda w: len(EXTENSION_METHODS), "model_index": lambda w: len(w._menu),
                "step_index": lambda w: len(CONTEXT_STEPS)}
    factor_index = traitlets.Int(3).tag(sync=True)    # s = 8
    # p = L: every slow pair at the end of its arc
    position_index = traitlets.Int(0).tag(sync=True)
    scheme_index = traitlets.Int(0).tag(sync=True)    # no scaling: the problem first
    model_index = traitlets.Int(0).tag(sync=True)
    step_index = traitlets.Int(0).tag(sync=True)

    def __init__(self, dim=CONTEXT_DEFAULTS["dim"], base=CONTEXT_DEFAULTS["base"],
                 training_length=CONTEXT_DEFAULTS["training_length"], factors=CONTEXT_DEFAULTS["factors"],
                 position_range=(CONTEXT_DEFAULTS["positions"][0], CONTEXT_DEFAULTS["positions"][-1]),
                 positions_per_octave=64, models=None, step=None, **kwargs):
        if step is not None:
            kwargs.setdefault("step_index", _check_step(step))
        self._dim = check_dim(dim)
        self._base = check_choices([base], "base")[0]
        self._length = check_choices([training_length], "training_length", integer=True)[0]
        self._factors = check_choices(factors, "factors")
        if min(self._factors) < 1:
            raise ValueError(f"factors must all be >= 1, got {self._factors}")
        if isinstance(position_range, str) or not hasattr(position_range, "__len__") or len(position_range) != 2:
            raise ValueError(f"position_range must be (first, last), got {position_range!r}")
        first, last = check_choices(position_range, "position_range", integer=True)
        self._grid = {"first": first, "last": last, "per_octave": positions_per_octave}
        try:
            self._positions = octave_positions(first, last, positions_per_octave)
        except (TypeError, ValueError) as error:
            # octave_positions names its own arguments (first, last, per_octave): say ours.
            name = "positions_per_octave" if "per_octave" in str(error) else "position_range"
            raise ValueError(f"{name}: {error}") from None
        self._models = _check_model_names(models)
        if "model_index" not in kwargs and DEFAULT_MODEL in self._models:
            kwargs["model_index"] = [key for key, _ in _model_layer_specs(self._models)].index((DEFAULT_MODEL, None))
        self._menu = [model_spectrum(spec, name) for (name, _), spec in _model_layer_specs(self._models)]
        # p = L first: every slow pair at the end of its arc.
        if "position_index" not in kwargs and self._length in self._positions:
            kwargs["position_index"] = self._positions.index(self._length)
        self._fit_default_indices(kwargs, factor_index=len(self._factors), position_index=len(self._positions))
        super().__init__(**kwargs)
        # One assignment: the state a page embeds is what the trait held when it was synced.
        self.data = {**self._compute(), "models": self._menu}

    def _compute(self):
        # Read out at L only: what depends on p the page computes from reach_per_token.
        tab = context_extension_table(self._dim, self._base, self._length, self._factors, [self._length])
        per_factor = [{method: {
            "log10_wavelength": table(np.log10(row["wavelength"]), 9),
            "band": row["band"].tolist(),
            "reach_per_token": significant(row["reach_per_token"], 9),
            "attention_factor": round(float(row["attention_factor"]), 6),
        } for method, row in per_method.items()} for per_method in tab["per_factor"]]
        return {"dim": self._dim, "base": self._base, "training_length": self._length,
                "factors": self._factors, "position_grid": self._grid,
                "methods": list(EXTENSION_METHODS), "labels": list(EXTENSION_METHODS.values()),
                "bands": list(BAND_NAMES),
                "theta": significant(tab["theta"]),
                "turns_in_training": significant(tab["turns_in_training"]),
                "slow": np.flatnonzero(tab["slow"]).tolist(),
                "slow_pairs": int(tab["slow"].sum()),
                "slowest_turns_in_training": round(float(tab["turns_in_training"][-1]), 6),
                "per_factor": per_factor}


    @property
    def positions(self):
        """The position slider's stops, tuple of int: ``position_index`` indexes it."""
        return self._positions


def _check_step(step):
    if isinstance(step, str) and step in CONTEXT_STEPS:
        return CONTEXT_STEPS.index(step)
    if not isinstance(step, bool) and isinstance(step, int) and 0 <= step < len(CONTEXT_STEPS):
        return step
    raise ValueError(f"step must be one of {CONTEXT_STEPS} or an index 0..{len(CONTEXT_STEPS) - 1}, got {step!r}")
_LOG_DECIMALS = 11  # log10 wavelengths: 1e-11 absolute is 2.3e-11 relative, for 1e-9 checks
_SIGNIFICANT = 9    # frequencies and ratios spanning many decades: relative, not absolute, rounding


def significant(values, digits=_SIGNIFICANT):
    """Numbers as a list of floats rounded to ``digits`` significant digits (relative error
    below ``0.5 * 10**(1 - digits)``), for values such as frequencies that span decades."""
    return [float(f"{v:.{digits - 1}e}") for v in np.asarray(values, dtype=np.float64).ravel()]


def _shown(values, digits=3):
    """``values`` (any shape) as nested lists rounded to the ``digits`` significant digits a
    read-out shows."""
    values = np.asarray(values, dtype=np.float64)
    return np.asarray(significant(values, digits)).reshape(values.shape).tolist()


def _check_model_names(models):
    if models is None:
        return list(atlas.names())
    if isinstance(models, str) or not hasattr(models, "__len__") or len(models) == 0:
        raise ValueError(f"models must be a non-empty sequence of atlas names, got {models!r}")
    for name in models:
        if name not in atlas.names():
            raise ValueError(f"models must contain atlas names {atlas.names()}, got {name!r}")
    return list(models)


def _model_layer_specs(models):
    """``[((name, layer_type), RopeSpec), ...]``: one entry per model and layer type with RoPE."""
    return [((name, layer_type), spec) for name in models for layer_type, spec in atlas.specs(name).items()]


def _log10_wavelengths(theta):
    with np.errstate(divide="ignore"):
        log = np.log10(2 * np.pi / np.asarray(theta, dtype=np.float64))
    return [None if not np.isfinite(v) else round(float(v), _LOG_DECIMALS) for v in log]


def model_spectrum(spec, name, *, rtol=1e-9):
    r"""What the model menu sends to the page for one atlas model and layer type: the table of
    :func:`rope_core.demos.context.model_spectrum_table` as JSON-ready lists.

    Returns
    -------
    dict
        ``log10_wavelength`` (shipped :math:`2\pi/\theta'_i`, ``None`` for pairs that never
        turn) and ``log10_wavelength_trained`` (unscaled, ``None`` when equal to the shipped
        ones); ``training``, ``context``; ``slow`` (pair indices); ``band`` per pair (0 kept,
        1 blended, 2 scaled; ``None`` for pairs that never turn); ``largest_ratio``, ``beyond``,
        ``worst``; ``scaling_trained`` (``True``: the model was trained with this layer type's
        scaling, ``False``: the scaling is added at deployment, ``None``: the layer type has
        no scaling or the atlas does not say) and ``scaling_source`` (the citation,
        :attr:`rope_core.atlas.ModelEntry.scaling_source`); and the model's ``name``,
        ``title``, ``layer_type``, ``label``, ``rope_type``, ``base``, ``rotary_dim``,
        ``head_dim``, ``pairs``, ``rotated_pairs``, ``factor``.
    """
    tab = model_spectrum_table(spec, name, rtol=rtol)
    turning = tab["turning"]
    entry = atlas.entry(name)
    scaled = tab["rope_type"] in atlas.SCALED_ROPE_TYPES
    trained = entry.scaling_trained if scaled else None
    return {
        "name": name, "title": entry.title, "layer_type": tab["layer_type"], "label": tab["label"],
        "scaling_trained": trained, "scaling_source": entry.scaling_source if trained is not None else None,
        "rope_type": tab["rope_type"], "base": tab["base"], "rotary_dim": tab["rotary_dim"],
        "head_dim": tab["head_dim"], "pairs": int(turning.size), "rotated_pairs": int(turning.sum()),
        "factor": tab["factor"], "training": tab["training"], "context": tab["context"],
        "log10_wavelength": _log10_wavelengths(tab["shipped"]),
        "log10_wavelength_trained": None if tab["same"] else _log10_wavelengths(tab["trained"]),
        "slow": np.flatnonzero(tab["slow"]).tolist(),
        "band": [int(b) if t else None for b, t in zip(tab["band"], turning)],
        "largest_ratio": round(tab["largest_ratio"], 6), "beyond": tab["beyond"],
        "worst": None if tab["worst"] is None else round(tab["worst"], 6),
    }


class LayoutExplorer(RopeWidget):
    r"""Which features form a pair in the interleaved layout :math:`(2i, 2i+1)` and in the
    half layout :math:`(i, i + d/2)`, the permutation that maps one to the other, and what both
    do to a vector's numbers and to a head's attention.

    A sample :math:`x = (1, 2, \dots, d)` is drawn in the interleaved layout, as :math:`Px`
    (the half layout) and as ``rotate_half`` of :math:`Px` (halves swapped, the new first half
    negated); a button moves the numbers along the lines. Below, a head that looks one token
    back (:func:`rope_core.demos.spectrum.layout_scores`): its attention over the words of
    ``sentence`` from the query word ``query``
    (:func:`rope_core.demos.spectrum.layout_sentence_attention`), and its score against
    :math:`n - m`. The toggle ``wrong_layout`` runs the same weights through half-layout code:
    each word then looks mostly at itself, and the score's peak at :math:`n - m = -1` is gone.

    Parameters
    ----------
    dims : sequence of int
        Dimension choices (even, at most 32). The widget opens at the largest, where the peak
        at :math:`-1` stands out most (at :math:`d = 8` the slow pairs are too few to keep
        the other distances low).
    base : float
        Used for the read-out of each pair's frequency and for the scores.
    sentence : str
        Words separated by spaces, 2 to 10 of them, each at most 8 characters (one word a
        slot of the drawing).

    Notes
    -----
    The page draws :func:`rope_core.demos.spectrum.layout_table`; hovering or focusing a
    feature highlights its pair in every row and shows :math:`\theta_i` and
    :math:`\lambda_i`. ``data["tables"][k]["attention"]`` holds the (T, T) weights,
    ``trained`` and ``wrong``, rounded to 3 decimals.
    """

    _esm = module("layout_explorer")
    _css = _SPECTRUM_CSS
    _sliders = {"dim_index": lambda w: len(w._dims), "pair": lambda w: min(w._dims) // 2,
                "query": lambda w: len(w._words)}
    dim_index = traitlets.Int(0).tag(sync=True)
    pair = traitlets.Int(1).tag(sync=True)
    query = traitlets.Int(9).tag(sync=True)
    wrong_layout = traitlets.Bool(False).tag(sync=True)

    def __init__(self, dims=(8, 16), base=10000.0, sentence="the old cat sat on the warm mat", **kwargs):
        self._dims = [check_dim(d, "dims") for d in check_choices(dims, "dims", integer=True)]
        if max(self._dims) > 32:
            raise ValueError(f"dims must be at most 32 to stay readable, got {self._dims}")
        self._base = check_choices([base], "base")[0]
        if not isinstance(sentence, str):
            raise TypeError(f"sentence must be a string of words, got {sentence!r}")
        self._words = sentence.split()
        if not 2 <= len(self._words) <= 10 or max(map(len, self._words)) > 8:
            raise ValueError(f"sentence must have 2 to 10 words of at most 8 characters, got {sentence!r}")
        kwargs.setdefault("dim_index", len(self._dims) - 1)
        self._fit_default_indices(kwargs, pair=min(self._dims) // 2, query=len(self._words))
        super().__init__(**kwargs)
        self.data = self._compute()

    def _compute(self):
        tables = []
        for dim in self._dims:
            t = layout_table(dim, self._base)
            scores = layout_scores(dim, self._base, range(-16, 17))
            attention = layout_sentence_attention(dim, self._base, self._words)
            tables.append({key: t[key].tolist() for key in ("interleaved_pairs", "half_pairs", "interleaved_to_half")}
                          | {key: table(t[key]) for key in ("x", "permuted", "rotated_half")}
                          | {"theta": exact(t["theta"]), "wavelength": exact(t["wavelength"]),
                             "scores": {"distances": scores["distances"].tolist(), "trained": table(scores["trained"]),
                                        "wrong": table(scores["wrong"])},
                             "attention": {key: table(attention[key], 3) for key in ("trained", "wrong")}})
        return {"dims": self._dims, "base": self._base, "words": self._words, "tables": tables}
