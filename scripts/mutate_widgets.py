"""A small mutation run over the widgets' Python side: ~1 % errors, does the test suite notice?

Each mutant is one textual replacement in ``rope_core/widgets/explorers.py`` that changes a
number the page shows by about 1 % (or flips a warning). For each, the file is patched, the
given pytest command runs, and the file is restored. Prints caught/survived and the catch rate.

Usage: python scripts/mutate_widgets.py [pytest args]   (default: tests/test_widgets.py -q -x)
Only the Python tables are mutated here; the JS and views mutants of issue 14 are not covered.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "rope_core" / "widgets" / "explorers.py"
MUTANTS = [
    ('"cos": table(np.cos(angles))', '"cos": table(1.01 * np.cos(angles))'),
    ('"rotated": table(rotated)', '"rotated": table(1.01 * rotated)'),
    ('"scores": table(scores)', '"scores": table(1.01 * scores)'),
    ('"rotated_k": table(rotate_2d(self._k, scaled))', '"rotated_k": table(rotate_2d(self._k, 1.01 * scaled))'),
    ('"angle": table(np.mod(positions[:, None] * theta, 2 * np.pi))',
     '"angle": table(np.mod(positions[:, None] * theta * 1.01, 2 * np.pi))'),
    ('"wavelength": table(wave, 3)', '"wavelength": table(1.01 * wave, 3)'),
    ('entries.append(table(matrix[block_rows, block_cols]))', 'entries.append(table(1.01 * matrix[block_rows, block_cols]))'),
    ('"bound": table(bound / bound[0])', '"bound": table(1.01 * bound / bound[0])'),
    ('turns = positions * scaled[-1] / (2 * np.pi)', 'turns = 1.01 * positions * scaled[-1] / (2 * np.pi)'),
    ('"log10_wavelength": table(np.log10(2 * np.pi / scaled))', '"log10_wavelength": table(np.log10(2.02 * np.pi / scaled))'),
    ('"worst_ratio": table(worst)', '"worst_ratio": table(1.01 * worst)'),
    ('slow = trained_angle < 2 * np.pi               # fewer', 'slow = trained_angle < 2.02 * np.pi               # fewer'),
]


def main(argv):
    command = [sys.executable, "-m", "pytest", *(argv or ["tests/test_widgets.py", "-q", "-x"])]
    original = TARGET.read_text()
    caught = []
    try:
        for old, new in MUTANTS:
            if original.count(old) != 1:
                print(f"SKIP (not found once): {old}")
                continue
            TARGET.write_text(original.replace(old, new))
            failed = subprocess.run(command, cwd=ROOT, capture_output=True).returncode != 0
            caught.append(failed)
            print(f"{'caught  ' if failed else 'SURVIVED'} {new}")
    finally:
        TARGET.write_text(original)
    print(f"{sum(caught)} of {len(caught)} mutants caught ({100 * sum(caught) / max(len(caught), 1):.0f} %)")
    return 0 if all(caught) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
