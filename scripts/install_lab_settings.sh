#!/usr/bin/env bash
# The book's JupyterLab and Jupyter server settings, installed into one Python environment.
# `make lab` and Binder's postBuild both run this, so both open the chapters the same way:
# - overrides.json: a double-click on a chapter's .md file opens it as a notebook (jupytext);
# - jupyter_server_config.py: loads scripts/jupyter_lab_config.py, which saves an edit of a
#   chapter as only the lines it changed.
# Usage: scripts/install_lab_settings.sh PREFIX   (the environment's sys.prefix)
set -euo pipefail
prefix="$1"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$prefix/share/jupyter/lab/settings" "$prefix/etc/jupyter"
cp "$repo/scripts/jupyterlab-overrides.json" "$prefix/share/jupyter/lab/settings/overrides.json"
config="$repo/scripts/jupyter_lab_config.py"
cat > "$prefix/etc/jupyter/jupyter_server_config.py" <<PY
# Written by scripts/install_lab_settings.sh: the RoPE book's server settings.
load_subconfig(${config@Q})  # noqa: F821 - provided by Jupyter when it loads this file
PY
