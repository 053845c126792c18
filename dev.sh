#!/usr/bin/env bash
# gpuplan developer entry point. Each command installs what is missing first
# (Debian packages with apt-get, npm packages with npm ci) and says what it does.
#
#   ./dev.sh setup          install the toolchain and npm packages
#   ./dev.sh build          native CLI + tests, wasm module + tests, the page in dist/
#   ./dev.sh serve          build, then serve dist/ on http://127.0.0.1:8000
#   ./dev.sh test           build, then run every test suite
#   ./dev.sh bench          performance budgets: plan() natively and in wasm, page weight, first figure
#   ./dev.sh fuzz [SECONDS] run the libFuzzer targets (clang, ASan + UBSan)
#   ./dev.sh prices         regenerate the dated price table in docs/catalog.md from the catalog
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs acorn from here for optimized links

say() { printf '\033[1;34m==> %s\033[0m\n' "$*"; }
die() { printf '\033[1;31mdev.sh: %s\033[0m\n' "$*" >&2; exit 1; }

APT_PACKAGES=(cmake ninja-build g++ clang emscripten binaryen nlohmann-json3-dev googletest
              libbenchmark-dev chromium fonts-noto-cjk gzip xz-utils)

need_apt() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # Node may come from Debian or from NodeSource (which bundles npm): check the commands.
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  if ((${#missing[@]})); then
    say "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
      die "apt-get install failed for: ${missing[*]}"
  fi
}

need_npm() {
  [ -f package-lock.json ] || return 0
  # Reinstall when the lock file is newer than the installed tree.
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "installing npm packages (npm ci, pinned by package-lock.json)"
    npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
  fi
}

setup() {
  say "checking the toolchain"
  need_apt
  need_npm
}

build_native() {
  say "building native: CLI and tests (build/native)"
  cmake --preset native >/dev/null
  cmake --build --preset native
}

build_wasm() {
  say "building WebAssembly: module and tests (build/wasm)"
  cmake --preset wasm >/dev/null
  cmake --build --preset wasm
}

build_page() {
  [ -f package.json ] || { say "no package.json yet: skipping the page"; return 0; }
  say "building the page (dist/index.html: type check, then Vite inlines script, style and wasm)"
  npm run --silent build
}

build() {
  setup
  build_native
  build_wasm
  build_page
}

run_tests() {
  build
  say "C++ tests, native"
  ctest --preset native
  say "C++ tests, WebAssembly under node"
  ctest --preset wasm
  fuzz_smoke
  if [ -f package.json ]; then
    say "JavaScript and browser tests"
    npm run --silent test
  fi
  # The CI budgets for plan() in wasm, in CPU time so a loaded runner cannot
  # flake them (docs/performance.md); ./dev.sh bench holds the tighter 1 ms aim.
  say "plan() in wasm: full plan within 5 ms median, a fresh module's largest request within 2 s"
  node tools/bench_plan.mjs build/wasm/bin/gpuplan.js --iterations 300 --budget-ms 5 --cold-budget-ms 2000
  # The page's weight: bytes only, no timing, so a loaded runner cannot flake
  # it. The aim is 200 KiB; the page is over it since the lab's page, the
  # price paste and the prices of standing landed; CI guards 206 KiB, just
  # over what it weighs now (docs/performance.md, "The page over 200 KiB").
  say "page weight: dist/index.html gzipped within the 206 KiB guard (aim 200)"
  node tools/bench_page.mjs --weight-only --max-kib 206
}

serve() {
  build
  say "serving dist/ on http://127.0.0.1:8000 (Ctrl-C to stop)"
  # vite.config.mts has root web/ and outDir ../dist: preview serves dist/ as built.
  npx --no-install vite preview --host 127.0.0.1 --port 8000 --strictPort
}

bench() {
  build
  local status=0
  say "benchmarks: the page (weight, first figure, plan() in the page's module)"
  npm run --silent bench || status=1
  say "benchmarks: plan() natively (Google Benchmark, build/bench; docs/performance.md)"
  cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPLAN_BUILD_BENCHMARKS=ON \
    -DGPUPLAN_BUILD_TESTS=OFF -DGPUPLAN_BUILD_CLI=OFF >/dev/null
  cmake --build build/bench --target gpuplan_bench
  build/bench/bin/gpuplan_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true || status=1
  say "benchmarks: plan() in wasm under node (budget: full plan in 1 ms median)"
  node tools/bench_plan.mjs build/wasm/bin/gpuplan.js || status=1
  return $status
}

# A short, fixed fuzzing run of each target as part of the tests: the log stays
# in build/fuzz/*.log; a crash fails the run and leaves its input in build/fuzz/.
fuzz_smoke() {
  local seconds=${GPUPLAN_FUZZ_SECONDS:-10}
  say "fuzz smoke test: each target ${seconds}s (log: build/fuzz-smoke.log)"
  if ! fuzz "$seconds" >build/fuzz-smoke.log 2>&1; then
    tail -40 build/fuzz-smoke.log
    die "fuzzing found a failure (see build/fuzz-smoke.log and build/fuzz/crash-*)"
  fi
  grep -E "^(==> fuzzing|Done)" build/fuzz-smoke.log | sed 's/\x1b\[[0-9;]*m//g'
}

fuzz() {
  local seconds=${1:-60}
  setup
  say "building fuzzers (clang, ASan + UBSan) in build/fuzz"
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined" \
    -DGPUPLAN_BUILD_FUZZERS=ON -DGPUPLAN_BUILD_TESTS=OFF -DGPUPLAN_BUILD_CLI=OFF >/dev/null
  cmake --build build/fuzz
  for f in build/fuzz/bin/fuzz_*; do
    local name
    name=$(basename "$f")
    say "fuzzing $name for ${seconds}s"
    mkdir -p "build/fuzz/corpus/$name"
    "$f" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix=build/fuzz/ -max_len=65536 "build/fuzz/corpus/$name" "fuzz/seeds/${name#fuzz_}"
  done
}

# The price table in docs/catalog.md is generated from the catalog the CLI
# carries (tools/price_table.mjs); tests/js/price_table.test.mjs fails when
# the committed table is not the catalog's.
prices() {
  setup
  cmake --preset native >/dev/null
  cmake --build --preset native --target gpuplan_cli
  say "regenerating the price table in docs/catalog.md"
  build/native/bin/gpuplan catalog | node tools/price_table.mjs --write docs/catalog.md
}

case "${1:-}" in
  setup) setup ;;
  prices) prices ;;
  build) build ;;
  serve) serve ;;
  test) run_tests ;;
  bench) bench ;;
  fuzz) shift; fuzz "$@" ;;
  *) sed -n '2,12p' "$0"; exit 1 ;;
esac
