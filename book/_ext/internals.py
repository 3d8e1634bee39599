"""The one place the book's extensions touch what their libraries do not document as API.

Sphinx, MyST-NB, sphinx-book-theme and docutils publish an API for extensions (events,
directives, transforms, ``app.add_*``). A few things the book needs have no such API; each is
wrapped here in a named function, with the library, the version it was checked on and what
breaks if it changes, so that an upgrade means reading this file, not every extension.
``tests/test_private_api.py`` fails when one of these internals is used anywhere else in
``book/_ext`` or ``scripts``.

The lab's server settings (``scripts/jupyter_lab_config.py``) use one internal of Jupyter
Server, also wrapped here; this file imports nothing at its top, so it loads without Sphinx.

Checked on the versions of ``requirements.lock``: Sphinx 7.4.7, MyST-NB 1.4.0,
sphinx-book-theme 1.2.0 (pydata-sphinx-theme 0.16.1), sphinx-exercise 1.2.1, Jupyter Server
2.21.1, Jinja2 as Sphinx bundles it.
"""

from __future__ import annotations


def nb_element(node) -> str | None:
    """Which part of a notebook cell a docutils node is, as MyST-NB marks it.

    MyST-NB 1.4 (``myst_nb/core/render.py``) sets the node attribute ``nb_element`` to
    ``"cell_code"`` on a code cell's container and to ``"cell_code_source"`` /
    ``"cell_code_output"`` on its parts. Undocumented; if renamed, ``teach_first`` finds no
    code cell and lifts no claim line, without an error.

    Parameters
    ----------
    node : docutils.nodes.Node
        Any node; only elements carry attributes.

    Returns
    -------
    str or None
        The marker, or None for a node MyST-NB did not mark.
    """
    return node.get("nb_element") if hasattr(node, "get") else None


def leave_folding_to_us(cell) -> None:
    """Stop MyST-NB from folding a code cell again that an extension has folded itself.

    MyST-NB 1.4 records the ``hide-input``/``hide-output`` tags as the cell attribute
    ``hide_mode`` and folds those cells in its own post-transform (priority 199).
    """
    cell.attributes.pop("hide_mode", None)


def execution_cache_path(env) -> str | None:
    """The folder of MyST-NB's jupyter-cache for this build (``execution_cache_path``).

    MyST-NB 1.4 keeps its resolved configuration on ``env.mystnb_config`` (a ``NbParserConfig``);
    the attribute is not documented for other extensions.
    """
    config = getattr(env, "mystnb_config", None)
    return getattr(config, "execution_cache_path", None) or None


def header_buttons(context: dict) -> list:
    """The launch and download buttons sphinx-book-theme puts in a page's template context.

    sphinx-book-theme 1.2 fills ``context["header_buttons"]`` (a list of dicts with ``text``,
    ``url`` and nested ``buttons``) in its ``html-page-context`` handler at priority 501; an
    extension that changes a button must run after it. Undocumented.
    """
    return context.get("header_buttons", [])


def add_template_filter(app, name: str, function) -> None:
    """Make ``function`` a Jinja filter of the HTML builder's templates under ``name``.

    Sphinx 7.4 has no public call for template filters; the builder's ``templates``
    (a ``BuiltinTemplateLoader``) holds the Jinja ``environment``. Call it from
    ``builder-inited``, once the HTML builder exists.
    """
    app.builder.templates.environment.filters[name] = function


def is_exercise_solution(node) -> bool:
    """Whether a docutils node is an exercise's solution, as sphinx-exercise builds it.

    sphinx-exercise 1.2 turns ``{solution}`` (and the gated ``{solution-start}`` /
    ``{solution-end}``) into the node classes of ``sphinx_exercise.nodes``, a module it does not
    document. If they move, reading times count solutions as prose, without an error.
    """
    # Imported here: the lab's server settings import this file where Sphinx is not installed.
    from sphinx_exercise.nodes import solution_end_node, solution_node, solution_start_node

    return isinstance(node, (solution_node, solution_start_node, solution_end_node))


def contents_os_path(contents_manager, api_path: str) -> str:
    """The file a Jupyter contents manager reads and writes for an API path (``book/02-x.md``).

    Jupyter Server 2.21's file contents managers resolve it in ``_get_os_path`` (with the
    checks that the path stays inside ``root_dir``), which has no public name. It raises the
    server's 404 ``HTTPError`` for a path outside the root.
    """
    return contents_manager._get_os_path(api_path)


def run_pages_with(executor, worker_class) -> None:
    """Make jupyter-cache's parallel executor run each page with ``worker_class()``.

    jupyter-cache 1.0.1 (``jupyter_cache/executors/basic.py``): ``JupyterExecutorLocalMproc.
    run_and_cache`` maps ``self._EXECUTION_WORKER()`` over the pages in a ``multiprocessing.Pool``;
    there is no public way to choose that worker. If it is renamed, the executor runs its own
    worker again, and a page whose kernel fails to start can again leave a pool worker that
    ignores SIGTERM, so that the pool, and the build, wait for ever.
    """
    executor._EXECUTION_WORKER = worker_class
