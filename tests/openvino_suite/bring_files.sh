#!/bin/sh
# Copy OpenVINO's test files listed in MANIFEST.txt into upstream/ (git-ignored), unmodified,
# and check them against the sha256 sums of the manifest. The source is either
#   - a git checkout of openvinotoolkit/openvino: each file at its pinned commit, or
#   - a folder laid out as upstream/ (tests/__init__.py, tests/test_runtime/..., e.g. a copy kept
#     in ../shared/openvino_suite/ beside the project, where `make openvino-suite` looks for it).
# A file the source lacks is reported and skipped (the suite runs the modules that are there);
# a file whose sum differs stops the copy.
#   sh tests/openvino_suite/bring_files.sh /path/to/openvino/checkout-or-folder
set -eu
source=${1:?usage: bring_files.sh /path/to/openvino/checkout-or-folder}
here=$(cd "$(dirname "$0")" && pwd)
grep -v '^#' "$here/MANIFEST.txt" | while read -r path commit sum; do
    mkdir -p "$here/upstream/$(dirname "$path")"
    if [ -d "$source/.git" ] || git -C "$source" rev-parse --git-dir >/dev/null 2>&1 \
            && [ ! -f "$source/$path" ]; then
        if ! git -C "$source" show "$commit:src/bindings/python/$path" > "$here/upstream/$path" 2>/dev/null; then
            rm -f "$here/upstream/$path"
            echo "not in $source at $commit: $path (skipped)" >&2
            continue
        fi
    elif [ -f "$source/$path" ]; then
        cp "$source/$path" "$here/upstream/$path"
    else
        echo "not in $source: $path (skipped)" >&2
        continue
    fi
    echo "$sum  $here/upstream/$path" | sha256sum -c -
done
