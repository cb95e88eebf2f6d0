# libFuzzer targets: each folder under Fuzz/ holds <Name>Fuzz.swift (the LLVMFuzzerTestOneInput entry point) and
# `sources`, the globs of the module files it is compiled with; an optional `modules` names the modules those files
# import, one a line as `Name globs…`, compiled first (in order, instrumented too) as static libraries. swiftc builds
# each one directly (no SwiftPM, no dependencies), so the fuzzed code stays free of Crypto and BigInt: a module is
# given only the files the parser needs. Zero crashes allowed.
set -euo pipefail
shopt -s nullglob
cd "$ROOT"
seconds=${FUZZ_SECONDS:-60}
mkdir -p .fuzz
for dir in Fuzz/*/; do
    name=$(basename "$dir")
    entry=$(ls "$dir"*Fuzz.swift)
    # shellcheck disable=SC2046 # the globs in `sources` are meant to expand
    sources=$(cd "$ROOT" && echo $(cat "$dir/sources"))
    echo "fuzz target $name: compiling"
    libraries=".fuzz/$name-modules"
    rm -rf "$libraries"
    mkdir -p "$libraries"
    links=()
    if [ -f "$dir/modules" ]; then
        while read -r module globs; do
            [ -n "$module" ] || continue
            # shellcheck disable=SC2086 # the globs are meant to expand
            swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name contactless -emit-library -static -module-name "$module" \
                -I "$libraries" -emit-module -emit-module-path "$libraries/$module.swiftmodule" \
                $globs -o "$libraries/lib$module.a"
            # A static library must come before the ones it uses: the last module first.
            links=("-l$module" "${links[@]}")
        done < "$dir/modules"
    fi
    # ld.gold warns about every asan helper symbol; the warnings are harmless noise.
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name contactless -module-name "${name}Fuzz" -I "$libraries" \
        -L "$libraries" "${links[@]}" $sources "$entry" -o ".fuzz/$name" 2> >(grep -v "Cannot export local symbol" >&2)
    corpus=".fuzz/$name-corpus"
    mkdir -p "$corpus"
    seeds=()
    [ -d "$dir/corpus" ] && seeds=("$dir/corpus")
    echo "fuzz target $name: running for ${seconds}s"
    if ! ".fuzz/$name" -max_total_time="$seconds" -print_final_stats=1 "$corpus" "${seeds[@]}" > ".fuzz/$name.log" 2>&1; then
        tail -n 60 ".fuzz/$name.log"
        echo "fuzz target $name: CRASH (reproducer under $PWD, log .fuzz/$name.log)" >&2
        exit 1
    fi
    grep -E "^Done|stat::number_of_executed_units" ".fuzz/$name.log" | tail -n 2
    echo "fuzz target $name: no crashes"
done
