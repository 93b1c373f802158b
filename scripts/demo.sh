#!/usr/bin/env bash
# First the tour: examples/tour/tour.md checked offline against a snapshot of real registry
# records (verified, mismatched, not found, retracted, and a claim grounded in its source).
# Then render examples/paper.md with the citecheck filter to HTML, PDF and Word, write the
# reports, and build the LaTeX examples with latexmk and citecheck's rc file into draft PDFs.
# The deliberate problems in the examples are reported as warnings, not failures.
set -euo pipefail
cd "$(dirname "$0")/.."
# Offline: registry verification answers from the cache only (nothing cached = "unverifiable").
# Unset CITECHECK_OFFLINE to check the references against the live registries.
export CITECHECK_OFFLINE="${CITECHECK_OFFLINE:-1}"
repo="$PWD"
out="$repo/build"
mkdir -p "$out"
pandoc=$(python3 -c 'from citecore.pandoc.reader import pandoc_path; print(pandoc_path())')

tour="$out/tour"
rm -rf "$tour"
mkdir -p "$tour/sources"
echo "== citecheck snapshot build --complete -o build/tour/registry-snapshot.sqlite examples/tour/registry-records.jsonl"
citecheck snapshot build --complete -o "$tour/registry-snapshot.sqlite" examples/tour/registry-records.jsonl
echo "== pandoc examples/tour/sources/lala2023paperqa.md -o build/tour/sources/lala2023paperqa.pdf"
"$pandoc" examples/tour/sources/lala2023paperqa.md -o "$tour/sources/lala2023paperqa.pdf"
# The warnings are the ones a writer sees in the build; the HTML build repeats them, quietly.
for format in pdf html; do
  echo "== pandoc tour.md --filter citecheck --citeproc -o build/tour/tour.$format"
  quiet=$([ "$format" = pdf ] && echo false || echo true)
  (cd examples/tour && "$pandoc" tour.md --filter citecheck --citeproc --standalone \
    -M citecheck.snapshot="$tour/registry-snapshot.sqlite" -M citecheck.sources="$tour/sources" \
    -M citecheck.report="$tour/REVIEW-CITES.md" -M citecheck.quiet="$quiet" -o "$tour/tour.$format")
done
echo

cd examples
# As for the tour: the first build shows the warnings, the other formats repeat them quietly.
for format in html pdf docx; do
  echo "== pandoc paper.md --filter citecheck --citeproc -o build/paper.$format"
  quiet=$([ "$format" = html ] && echo false || echo true)
  "$pandoc" paper.md --filter citecheck --citeproc --standalone \
    -M citecheck.report="$out/REVIEW-CITES.md" -M citecheck.quiet="$quiet" -o "$out/paper.$format"
done
echo "== citecheck check paper.md -o build/report.json"
citecheck check paper.md --quiet -o "$out/report.json" || echo "(exit $?: the example has problems on purpose)"
for project in natbib biblatex; do
  echo "== latexmk -r latexmk/citecheck.latexmkrc -pdf examples/latex/$project/main.tex"
  rm -rf "$out/latex-$project"
  cp -r "$repo/examples/latex/$project" "$out/latex-$project"
  (cd "$out/latex-$project" && latexmk -r "$repo/latexmk/citecheck.latexmkrc" -pdf \
    -interaction=nonstopmode -silent main.tex >/dev/null)
  cp "$out/latex-$project/main.pdf" "$out/latex-$project.pdf"
done
echo
echo "Wrote build/tour/tour.{pdf,html}, build/tour/REVIEW-CITES.md,"
echo "      build/paper.{html,pdf,docx}, build/REVIEW-CITES.md, build/report.json,"
echo "      build/latex-natbib.pdf, build/latex-biblatex.pdf"
