#!/usr/bin/env bash
# Render examples/paper.md with the citecheck filter to HTML, PDF and Word, and write the reports.
# The deliberate problems in the example are reported as warnings, not failures.
set -euo pipefail
cd "$(dirname "$0")/.."
# Offline: registry verification answers from the cache only (nothing cached = "unverifiable").
# Unset CITECHECK_OFFLINE to check the references against the live registries.
export CITECHECK_OFFLINE="${CITECHECK_OFFLINE:-1}"
out="$PWD/build"
mkdir -p "$out"
pandoc=$(python3 -c 'from citecore.pandoc import pandoc_path; print(pandoc_path())')
cd examples
for format in html pdf docx; do
  echo "== pandoc paper.md --filter citecheck --citeproc -o build/paper.$format"
  "$pandoc" paper.md --filter citecheck --citeproc --standalone \
    -M citecheck.report="$out/REVIEW-CITES.md" -o "$out/paper.$format"
done
echo "== citecheck check paper.md -o build/report.json"
citecheck check paper.md --quiet -o "$out/report.json" || echo "(exit $?: the example has problems on purpose)"
echo
echo "Wrote build/paper.html, build/paper.pdf, build/paper.docx, build/REVIEW-CITES.md, build/report.json"
