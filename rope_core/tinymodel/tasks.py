r"""The two tasks: repeated random tokens (induction) and character-level text.

Both return ``(tokens, targets, mask)`` of shape ``(B, T)``: the model reads ``tokens`` and
is scored on predicting ``targets`` (the next token) wherever ``mask`` is 1.
"""

from __future__ import annotations

import gzip
from importlib import resources

import numpy as np

CORPUS_FILE = "shakespeare_tragedies.txt.gz"


def induction_batch(rng, batch, seq_len, periods, vocab=256):
    r"""Rows of :math:`p` distinct random tokens repeated to fill the row.

    Token :math:`t` of a row equals token :math:`t - p`, so once the first copy has been seen
    the next token can be found by looking back: find the earlier occurrence of the current
    token (at :math:`t - p`) and copy the one after it (an *induction head*, Olsson et al.).
    The target at :math:`t` is predictable exactly when :math:`t \ge p`; ``mask`` marks those.

    Parameters
    ----------
    rng : numpy.random.Generator
    batch, seq_len : int
    periods : int or array_like of int
        One period for every row, or a pool to draw each row's period from uniformly.
    vocab : int
        Number of token ids (each row needs ``p <= vocab`` distinct tokens).

    Returns
    -------
    tokens, targets : ndarray of int64, shape (batch, seq_len)
    mask : ndarray of float32, shape (batch, seq_len)

    Examples
    --------
    >>> tokens, targets, mask = induction_batch(np.random.default_rng(0), 1, 6, 2, vocab=9)
    >>> bool((tokens[0, 2:] == tokens[0, :-2]).all()), mask[0].tolist()
    (True, [0.0, 0.0, 1.0, 1.0, 1.0, 1.0])
    """
    pool = np.atleast_1d(np.asarray(periods, dtype=int))
    if pool.size == 0 or pool.min() < 1 or pool.max() > vocab:
        raise ValueError(f"periods must lie in 1..vocab ({vocab}), got {pool.tolist()}")
    chosen = rng.choice(pool, size=batch) if pool.size > 1 else np.full(batch, pool[0])
    rows = np.empty((batch, seq_len + 1), dtype=np.int64)
    for row, p in enumerate(chosen):
        rows[row] = np.resize(rng.permutation(vocab)[:p], seq_len + 1)
    t = np.arange(seq_len)
    mask = (t[None, :] >= chosen[:, None]).astype(np.float32)
    return rows[:, :-1], rows[:, 1:], mask


def induction_eval_set(seq_len, period, rows=32, vocab=256, seed=1234):
    """A fixed evaluation batch at one period (same rows every time, for every model)."""
    rng = np.random.default_rng([seed, seq_len, period])
    return induction_batch(rng, rows, seq_len, period, vocab)


class CharCorpus:
    r"""Character-level text: a vocabulary of the characters seen and a 90/10 split.

    The default text is six of Shakespeare's tragedies (842 000 characters, 73 symbols) as
    the Open Shakespeare project's package ``shakespeare`` 0.6 ships them: Project Gutenberg
    texts, public domain (``corpus/README.md`` says where exactly). It ships with rope_core,
    so nothing is downloaded.
    """

    def __init__(self, text=None):
        if text is None:
            raw = resources.files(__package__).joinpath("corpus", CORPUS_FILE).read_bytes()
            text = gzip.decompress(raw).decode("utf-8")
        if not isinstance(text, str) or len(text) < 1000:
            raise ValueError("text must be a string of at least 1000 characters")
        self.chars = sorted(set(text))
        lookup = {c: i for i, c in enumerate(self.chars)}
        ids = np.fromiter((lookup[c] for c in text), dtype=np.int64, count=len(text))
        split = int(0.9 * len(ids))
        self.train, self.valid = ids[:split], ids[split:]

    @property
    def vocab(self):
        return len(self.chars)

    def decode(self, ids):
        return "".join(self.chars[i] for i in np.asarray(ids).ravel())

    def batch(self, rng, batch, seq_len):
        """Random training windows; every position is scored."""
        starts = rng.integers(0, len(self.train) - seq_len - 1, size=batch)
        rows = np.stack([self.train[s:s + seq_len + 1] for s in starts])
        return rows[:, :-1], rows[:, 1:], np.ones((batch, seq_len), np.float32)

    def eval_chunks(self, seq_len, chunks=32):
        """Non-overlapping validation chunks from the start of the held-out text (as ALiBi
        evaluates: each chunk is read from its own first character)."""
        if chunks * (seq_len + 1) > len(self.valid):
            raise ValueError(f"the validation text holds fewer than {chunks} chunks of {seq_len + 1}")
        rows = self.valid[: chunks * (seq_len + 1)].reshape(chunks, seq_len + 1)
        return rows[:, :-1], rows[:, 1:], np.ones((chunks, seq_len), np.float32)
