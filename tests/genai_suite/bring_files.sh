#!/bin/sh
# Copy OpenVINO GenAI's test modules listed in MANIFEST.txt into upstream/ (git-ignored),
# unmodified, and check them against the manifest's sha256 sums. The source is either
#   - a git repository of openvinotoolkit/openvino.genai (a checkout or a bare mirror): each
#     file at its pinned commit, or
#   - a folder that holds the files by name (e.g. ../shared/genai_suite/ beside the project,
#     where `make genai-suite` looks for them).
# A file the source lacks is reported and skipped; a file whose sum differs stops the copy.
#   sh tests/genai_suite/bring_files.sh /path/to/openvino.genai-or-folder
set -eu
source=${1:?usage: bring_files.sh /path/to/openvino.genai-or-folder}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/upstream"
grep -v '^#' "$here/MANIFEST.txt" | while read -r name commit sum; do
    if [ -f "$source/$name" ]; then
        cp "$source/$name" "$here/upstream/$name"
    elif git -C "$source" rev-parse --git-dir >/dev/null 2>&1; then
        if ! git -C "$source" show "$commit:tests/python_tests/$name" > "$here/upstream/$name" 2>/dev/null; then
            rm -f "$here/upstream/$name"
            echo "not in $source at $commit: $name (skipped)" >&2
            continue
        fi
    else
        echo "not in $source: $name (skipped)" >&2
        continue
    fi
    echo "$sum  $here/upstream/$name" | sha256sum -c -
done
