# libFuzzer targets: each folder under Fuzz/ holds <Name>Fuzz.swift (the LLVMFuzzerTestOneInput entry point) and
# `sources`, the globs of the module files it is compiled with; an optional `modules` names the modules those files
# import, one a line as `Name globs…`, compiled first (in order, instrumented too) as static libraries. swiftc builds
# each one directly (no SwiftPM, no dependencies), so the fuzzed code stays free of Crypto and BigInt: a module is
# given only the files the parser needs. A folder with a Package.swift instead (parsers built on swift-crypto and
# swift-certificates) is a SwiftPM package built with the same sanitizers; its optional `lsan.supp` holds
# LeakSanitizer suppressions for its dependencies. Zero crashes allowed.
set -euo pipefail
shopt -s nullglob
cd "$ROOT"
seconds=${FUZZ_SECONDS:-60}
mkdir -p .fuzz

# run NAME DIR: fuzzes .fuzz/NAME for $seconds from DIR's seed corpus; fails the step at the first crash.
run() {
    local name=$1 dir=$2
    local corpus=".fuzz/$name-corpus"
    mkdir -p "$corpus"
    local seeds=() options=()
    [ -d "$dir/corpus" ] && seeds=("$dir/corpus")
    [ -f "$dir/lsan.supp" ] && options=("LSAN_OPTIONS=suppressions=$dir/lsan.supp")
    echo "fuzz target $name: running for ${seconds}s"
    if ! env "${options[@]}" ".fuzz/$name" -max_total_time="$seconds" -print_final_stats=1 "$corpus" "${seeds[@]}" \
        > ".fuzz/$name.log" 2>&1; then
        tail -n 60 ".fuzz/$name.log"
        echo "fuzz target $name: CRASH (reproducer under $PWD, log .fuzz/$name.log)" >&2
        exit 1
    fi
    grep -E "^Done|stat::number_of_executed_units" ".fuzz/$name.log" | tail -n 2
    echo "fuzz target $name: no crashes"
}

for dir in Fuzz/*/; do
    name=$(basename "$dir")
    if [ -f "$dir/Package.swift" ]; then
        echo "fuzz target $name: building its package"
        flags=(--package-path "$dir" -c release -Xswiftc -sanitize=fuzzer,address)
        swift build "${flags[@]}" 2> >(grep -v "Cannot export local symbol" >&2) | tail -n 1
        cp "$(swift build "${flags[@]}" --show-bin-path)/${name}Fuzz" ".fuzz/$name"
        run "$name" "$dir"
        continue
    fi
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
    run "$name" "$dir"
done
