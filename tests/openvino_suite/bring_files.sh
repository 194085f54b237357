#!/bin/sh
# Copy OpenVINO's test files listed in MANIFEST.txt from a git checkout of
# openvinotoolkit/openvino into upstream/ (git-ignored), each at its pinned commit, unmodified,
# and check them against the sha256 sums of the manifest.
#   sh tests/openvino_suite/bring_files.sh /path/to/openvino-checkout
set -eu
checkout=${1:?usage: bring_files.sh /path/to/openvino/checkout}
here=$(cd "$(dirname "$0")" && pwd)
grep -v '^#' "$here/MANIFEST.txt" | while read -r path commit sum; do
    mkdir -p "$here/upstream/$(dirname "$path")"
    git -C "$checkout" show "$commit:src/bindings/python/$path" > "$here/upstream/$path"
    echo "$sum  $here/upstream/$path" | sha256sum -c -
done
