#!/usr/bin/env bash
# capture_outputs.sh REPO OUTDIR: run scan, tree, explain, search and rules on fixed inputs with REPO's venv
# and store every output (exit status included, tool version and REPO path masked) under OUTDIR, so two
# checkouts can be compared byte for byte before and after a change that must not alter behaviour:
#   scripts/capture_outputs.sh /path/before /tmp/before && scripts/capture_outputs.sh . /tmp/after
#   diff -r /tmp/before /tmp/after
# Inputs: the bundled example, the torch 2.13.0 and 2.4.0 wheels in the test wheel cache, and the first
# case of each corpus/errors file (twelve texts) in json, text and markdown.
set -u
REPO=$(realpath "$1"); OUT=$(realpath -m "$2"); mkdir -p "$OUT"
cd "$REPO"; . .venv/bin/activate
W=~/.cache/dlldoctor-test-wheels
strip() { sed -E 's/"(tool_)?version": "[^"]*"/"version": X/g; s/dlldoctor [0-9.]+/dlldoctor X/g'; }
run() { name=$1; shift; "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo "rc=$?" >> "$OUT/$name.out"; }
run ex-json dlldoctor scan corpus/examples/site-packages --python 3.11 --format json --no-cache
run ex-text dlldoctor scan corpus/examples/site-packages --python 3.11 --no-cache
run ex-md dlldoctor scan corpus/examples/site-packages --python 3.11 --format markdown --no-cache
run ex-zh dlldoctor scan corpus/examples/site-packages --python 3.11 --lang zh --no-cache
run t213-json dlldoctor scan $W/torch-2.13.0-cp311-cp311-win_amd64.whl --python 3.11 --format json --no-cache
run t24-json dlldoctor scan $W/torch-2.4.0-cp311-cp311-win_amd64.whl --python 3.11 --format json --no-cache
run t24-text dlldoctor scan $W/torch-2.4.0-cp311-cp311-win_amd64.whl --python 3.11 --no-cache
run both-json dlldoctor scan $W/torch-2.13.0-cp311-cp311-win_amd64.whl $W/torch-2.4.0-cp311-cp311-win_amd64.whl --python 3.11 --format json --jobs 2 --no-cache
run tree213 dlldoctor tree $W/torch-2.13.0-cp311-cp311-win_amd64.whl --module torch._C -v
run tree24 dlldoctor tree $W/torch-2.4.0-cp311-cp311-win_amd64.whl
run treeex dlldoctor tree corpus/examples/site-packages -v
python - "$REPO" "$OUT" > "$OUT/texts.list" <<'PY'
import sys, yaml, pathlib
root = pathlib.Path(sys.argv[1]) / "corpus" / "errors"
cases = []
for f in sorted(root.glob("*.yaml")):
    d = yaml.safe_load(f.read_text(encoding="utf-8"))
    for c in d.get("cases", [])[:1]:
        cases.append(c)
for i, c in enumerate(cases[:12]):
    p = pathlib.Path(sys.argv[2]) / "texts" / f"t{i:02d}.txt"
    p.parent.mkdir(exist_ok=True)
    p.write_text(c["text"], encoding="utf-8")
    print(p.name)
PY
for name in $(cat "$OUT/texts.list"); do f="$OUT/texts/$name"; b=$(basename "$name" .txt)
  run ex-$b-json dlldoctor explain --file $f --format json
  run ex-$b-text dlldoctor explain --file $f
  run ex-$b-md dlldoctor explain --file $f --format markdown
done
run exT-json dlldoctor explain --file "$OUT/texts/t00.txt" --target corpus/examples/site-packages --format json
run exT2-json dlldoctor explain "OSError: [WinError 126] 找不到指定的模块。 Error loading \"C:\\x\\torch\\lib\\fbgemm.dll\" or one of its dependencies." --target $W/torch-2.4.0-cp311-cp311-win_amd64.whl --format json
run search1 dlldoctor search 页面文件太小 --format json
run search2 dlldoctor search vcruntime140 --format json
run search3 dlldoctor search WinError 126
run rlist dlldoctor rules list
run rshow dlldoctor rules show msvcp140-entry-point-not-found
run rlint dlldoctor rules lint
run rtest dlldoctor rules test
rm -rf /tmp/cmp-cat; run rcat dlldoctor rules catalog --out /tmp/cmp-cat; (cd /tmp/cmp-cat && find . -type f | sort | xargs md5sum) > "$OUT/rcat.files"
run racc dlldoctor rules accuracy --out /tmp/cmp-acc.md; md5sum /tmp/cmp-acc.md | cut -c1-32 > "$OUT/racc.md5"
for f in "$OUT"/*.out; do sed "s#$REPO#REPO#g" "$f" | strip > "$f.s" && mv "$f.s" "$f"; done
