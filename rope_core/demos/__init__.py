"""Demos: what the book's pages and widgets show, computed from the maths in rope_core.

Nothing in here is RoPE itself; it sits between the maths (``rope_core``) and the views
(``rope_core.plots``, ``rope_core.widgets``). NumPy only.
"""
