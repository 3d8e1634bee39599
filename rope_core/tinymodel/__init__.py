"""Train a tiny transformer on a CPU and watch what its position encoding does.

NumPy only. The rest of rope_core never imports this subpackage.
"""
