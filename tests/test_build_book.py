"""scripts/build_book.py: what a build leaves for the next one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import build_book


@pytest.mark.parametrize("returncode", [0, 1])
def test_a_failed_strict_build_leaves_no_doctrees_to_hide_its_warnings(tmp_path, monkeypatch, returncode):
    doctrees = tmp_path / "_build" / ".doctrees"
    doctrees.mkdir(parents=True)
    (doctrees / "environment.pickle").write_bytes(b"read pages")

    def run(command, root):
        code = returncode if "build" in command else 0   # the execution step succeeds
        return subprocess.CompletedProcess(command, code, "", "")

    monkeypatch.setattr(build_book, "drop_stale_cache", lambda root: False)
    monkeypatch.setattr(build_book, "run_quietly", run)
    assert build_book.build(tmp_path).returncode == returncode
    assert doctrees.exists() == (returncode == 0)


# --- executing the pages: a kernel that fails is retried quietly, a failing cell is shown once --

PAGE = """\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: {kernel}
  language: python
  name: {kernel}
---
# {title}

```{{code-cell}} ipython3
{code}
```
"""


def make_book(root, kernel, pages):
    """A two-part book in ``root``: ``pages`` maps a page name to its one code cell."""
    (root / "book").mkdir()
    chapters = "".join(f"      - file: book/{name}\n" for name in pages)
    (root / "book" / "index.md").write_text("# A book\n")
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/index\n"
                                   f"parts:\n  - caption: Pages\n    numbered: 1\n    chapters:\n"
                                   f"{chapters}")
    (root / "_config.yml").write_text("execute:\n  timeout: 60\n")
    for name, code in pages.items():
        (root / "book" / f"{name}.md").write_text(PAGE.format(kernel=kernel, title=name, code=code))


def test_a_kernel_failure_is_retried_on_its_own_and_only_the_log_hears_of_it(tmp_path, monkeypatch, capfd):
    import jupyter_cache.executors
    from jupyter_cache.executors.base import ExecutorRunResult

    make_book(tmp_path, "python3", {"one": "1", "two": "2"})
    one, two = (str(tmp_path / "book" / f"{name}.md") for name in ("one", "two"))
    calls, workers = [], []

    class Executor:
        def __init__(self, name):
            self.name = name

        def run_and_cache(self, filter_uris=None, **_):
            calls.append((self.name, filter_uris))
            if hasattr(self, "_EXECUTION_WORKER"):
                workers.append(self._EXECUTION_WORKER)
            if self.name == "local-parallel":
                os.write(2, b"zmq.error.ZMQError: Address already in use\nKernel died\n")
                return ExecutorRunResult(succeeded=[one], excepted=[], errored=[two])
            os.write(2, b"Kernel is running over TCP without encryption\n")  # the retry's kernel
            return ExecutorRunResult(succeeded=list(filter_uris), excepted=[], errored=[])

    monkeypatch.setattr(jupyter_cache.executors, "load_executor",
                        lambda name, cache, logger: Executor(name))
    assert build_book.execute_pages(tmp_path) == 0
    assert calls == [("local-parallel", None), ("local-serial", [two])]
    assert workers == [build_book.ParallelWorker]  # the pool's worker restores the signals
    shown = capfd.readouterr()
    terminal = shown.out + shown.err
    assert "ZMQError" not in terminal and "FAILED" not in terminal and "TCP" not in terminal
    assert "executed 2 of 2 pages" in shown.out, shown
    assert "ZMQError: Address already in use" in (tmp_path / "_build" / "execute.log").read_text()


@pytest.mark.parametrize("retries", [-1, 1.5, True, "1"])
def test_retries_must_be_a_whole_number(tmp_path, retries):
    with pytest.raises(ValueError, match="retries"):
        build_book.execute_pages(tmp_path, retries=retries)


FLAKY_KERNEL = """\
import pathlib, sys
started = pathlib.Path(__file__).with_name("started-once")
if not started.exists():  # the first start fails, as a kernel that lost the race for a port
    started.touch()
    sys.exit("zmq.error.ZMQError: Address already in use (the first start of this kernel)")
from ipykernel import kernelapp
kernelapp.launch_new_instance()
"""


def flaky_kernel(tmp_path):
    """Install the kernel ``flaky`` under ``tmp_path/jupyter`` (JUPYTER_PATH); its folder."""
    kernels = tmp_path / "jupyter" / "kernels" / "flaky"
    kernels.mkdir(parents=True)
    (kernels / "flaky.py").write_text(FLAKY_KERNEL)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(kernels / "flaky.py"), "-f", "{connection_file}"],
        "display_name": "flaky", "language": "python"}))
    return kernels


@pytest.mark.chapters
def test_real_kernels_a_failed_start_is_retried_and_a_failing_cell_is_shown_once(tmp_path):
    kernels = flaky_kernel(tmp_path)
    root = tmp_path / "project"
    root.mkdir()
    make_book(root, "flaky", {"fine": "print(6 * 7)",
                              "broken": "raise ValueError('the page itself is wrong')"})

    # In a process of its own, as the build runs it: jupyter-cache's parallel executor forks
    # workers, and a fork from this multithreaded test process can deadlock in the child.
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import build_book; "
         "from pathlib import Path; sys.exit(build_book.execute_pages(Path(sys.argv[2])))",
         str(Path(build_book.__file__).parent), str(root)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")})
    terminal = done.stdout + done.stderr
    assert done.returncode == 1, terminal
    assert (kernels / "started-once").exists()  # the kernel did fail once, and then ran
    assert terminal.count("FAILED") == 1 and "FAILED book/broken.md: a cell raised an error" in terminal
    assert "the page itself is wrong" in terminal and "raise ValueError" in terminal
    assert terminal.count("An error occurred while executing the following cell") == 1
    assert "ZMQError" not in terminal and "jupyter_cache" not in terminal, terminal  # no executor internals
    assert "ZMQError: Address already in use" in (root / "_build" / "execute.log").read_text()
    from jupyter_cache import get_cache
    cached = {Path(record.uri).name for record in get_cache(str(root / "_build" / ".jupyter_cache"))
              .list_cache_records()}
    assert cached == {"fine.md"}


WORKER_THEN_SIGTERM = """\
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
import build_book
from jupyter_cache import get_cache
from jupyter_cache.executors.basic import ProcessData
cache = get_cache(sys.argv[2])
record = cache.add_nb_to_project(sys.argv[3], read_data={"name": "myst_nb_md", "type": "plugin"})
print("worker returned", build_book.ParallelWorker()(ProcessData(record.pk, record.uri, cache, 60, False))[0],
      flush=True)
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(10)
print("SIGTERM did not end the worker", flush=True)
"""


@pytest.mark.chapters
def test_a_pool_worker_whose_kernel_failed_to_start_still_ends_on_sigterm(tmp_path):
    """The pool ends its workers with SIGTERM; a worker that ignored it hung the build."""
    kernels = flaky_kernel(tmp_path)
    root = tmp_path / "project"
    root.mkdir()
    make_book(root, "flaky", {"fine": "print(6 * 7)"})
    done = subprocess.run(
        [sys.executable, "-c", WORKER_THEN_SIGTERM, str(Path(build_book.__file__).parent),
         str(root / "_build" / ".jupyter_cache"), str(root / "book" / "fine.md")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")})
    assert (kernels / "started-once").exists()  # the page's kernel did fail to start
    assert "worker returned 2" in done.stdout, done.stdout + done.stderr  # 2: the kernel failed, not a cell
    assert done.returncode == -signal.SIGTERM, done.stdout + done.stderr
