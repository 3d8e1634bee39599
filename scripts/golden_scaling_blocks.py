"""Write tests/fixtures/scaling_blocks_golden.json: transformers' numbers for chapter 12's scaling table.

Every record of :data:`rope_core.atlas.SCALING_BLOCKS` is built as
:func:`rope_core.atlas.scaling_block_config` gives it (the checkpoint's config, plus the block a
user adds at deployment), run through the model's own transformers config and rotary classes by
``scripts/golden_rope.py``'s ``run``, once per layer type that applies RoPE, and recorded with
``inv_freq``, ``attention_scaling`` and (DeepSeek's code) the softmax-scale factor.
``tests/test_atlas_scaling_blocks.py`` compares :func:`rope_core.from_config` with the file; it
needs neither torch nor transformers. Regenerate in the survey venv::

    PYTHONPATH=.:scripts /work/venv-survey/bin/python scripts/golden_scaling_blocks.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch
import transformers
from golden_rope import SEED, run

from rope_core import atlas
from rope_core.config import layer_plan

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "scaling_blocks_golden.json"


def main():
    rng = np.random.default_rng(SEED)
    records = []
    for item in atlas.SCALING_BLOCKS:
        config = atlas.scaling_block_config(item["model"])
        layer_types = list(dict.fromkeys(kind for kind, rotates in layer_plan(config) if rotates))
        for layer_type in layer_types or [None]:
            record = run(item["model"], config, layer_type, rng)
            record.pop("cases")  # the rotated heads are checked in rope_golden.json already
            record["config"] = config
            records.append(record)
            print(f"{item['model']:22s} {str(layer_type):18s} {len(record['inv_freq'])} pairs, "
                  f"attention scaling {record['attention_scaling']:.6g}", file=sys.stderr)
    payload = {"generated_by": "scripts/golden_scaling_blocks.py",
               "transformers_version": transformers.__version__,
               "torch_version": torch.__version__, "records": records}
    OUT.write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(records)} records)", file=sys.stderr)


if __name__ == "__main__":
    torch.set_grad_enabled(False)
    main()
