#!/usr/bin/env bash
# Builds the three samples and runs them in scripted mode, checking what they print.
#   Scripts/smoke.sh                                # uses .build
#   Scripts/smoke.sh --scratch-path .build-samples  # any `swift build` options
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product counter "$@"
swift build --product pdp "$@"
swift build --product shop "$@"
bin="$(swift build --show-bin-path "$@")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

failures=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then
    printf 'ok    %s\n' "$1"
  else
    printf 'FAIL  %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
    failures=$((failures + 1))
  fi
}

check "counter counts a script" "$(printf '0\n1\n2\n1')" \
  "$(printf '++-q' | "$bin/counter")"
check "counter counts with the arrow keys" "$(printf '0\n1\n0')" \
  "$(printf '\033[A\033[Bq' | "$bin/counter")"
check "counter hints at an unknown key" \
  "counter: Unknown key 'x'. Keys: + or ↑ count up · - or ↓ count down · q or Esc quit · Ctrl-Z suspend" \
  "$(printf 'xq' | "$bin/counter" 2>&1 >/dev/null)"

pdp() { "$bin/pdp" --speed 1000 --cart "$work/cart.json" "$@"; }
check "pdp loads, adds to the cart and quits" "$(cat <<'OUT'
start
loading
productLoaded: Yeezy Triple White, 220.00 EUR
productLoaded: Yeezy Triple White, 220.00 EUR (adding to cart)
addedToCart: Product: Yeezy Triple White added to cart for user: Richi (cart: 1 item)
OUT
)" "$(printf 'aq' | pdp --seed 1 --analytics "$work/analytics.log")"
check "pdp records the seed's analytics events" \
  "$(printf 'pdpShown\npdpLoading\nproductLoaded\npdpAddedToCart')" "$(cat "$work/analytics.log")"
check "pdp fails 4 in 9 adds with the seed's error, beside the product" \
  "addToCartFailed: Yeezy Triple White, 220.00 EUR · error: Error adding to cart (code 15)" \
  "$(printf 'aq' | pdp --seed 3 | tail -n 1)"

printf 'not json' >"$work/cart.json"
status=0
message="$(printf 'aq' | pdp --seed 1 2>&1)" || status=$?
check "pdp reports a corrupt cart" \
  "pdp: The cart file $work/cart.json is not a valid cart: it is not valid JSON. It was left untouched." \
  "$message"
check "pdp exits with status 1 on a corrupt cart" "1" "$status"
check "pdp leaves a corrupt cart untouched" "not json" "$(cat "$work/cart.json")"
status=0
message="$(printf 'aq' | "$bin/pdp" --speed 1000 --cart "$work/typo/cart.json" 2>&1)" || status=$?
check "pdp refuses a cart in a folder that does not exist, with status 1" \
  "1: pdp: The cart file $work/typo/cart.json cannot be created: the folder $work/typo does not exist." \
  "$status: $message"

shop() { "$bin/shop" --speed 1000 "$@"; }
check "shop lists, opens, adds to the cart and goes back" "$(cat <<'OUT'
catalog (searching): loading · cart: 0
catalog: 6 products · ▸ Yeezy Triple White (loading) · cart: 0
catalog: 6 products · ▸ Yeezy Triple White, 220.00 EUR · cart: 0
catalog: 6 products · ▸ Canvas High Top Black, 65.00 EUR · cart: 0
detail: loading · cart: 0
detail: productLoaded: Canvas High Top Black, 65.00 EUR · cart: 0
detail: productLoaded: Canvas High Top Black, 65.00 EUR (adding to cart) · cart: 0
detail: addedToCart: Product: Canvas High Top Black added to cart for user: Richi · cart: 1
catalog: 6 products · ▸ Canvas High Top Black, 65.00 EUR · cart: 1
OUT
)" "$(printf '\033[B\raq' | shop --seed 1)"
check "shop searches as it is typed" \
  "search \"wh\": 2 products · ▸ Yeezy Triple White, 220.00 EUR · cart: 0" \
  "$(printf '/wh\rq' | shop | tail -n 1)"
check "shop pushes the next product's page and pops back page by page" "$(cat <<'OUT'
detail: productLoaded: Yeezy Triple White, 220.00 EUR · cart: 0
detail (2 open): loading · cart: 0
detail (2 open): productLoaded: Canvas High Top Black, 65.00 EUR · cart: 0
detail: productLoaded: Yeezy Triple White, 220.00 EUR · cart: 0
catalog: 6 products · ▸ Yeezy Triple White, 220.00 EUR · cart: 0
OUT
)" "$(printf '\r\033[B\033\033q' | shop | tail -n 5)"
check "shop empties the cart in its sheet once confirmed" "$(cat <<'OUT'
cart sheet: 1 item: Yeezy Triple White · cart: 1
cart sheet: 1 item: Yeezy Triple White · Empty the cart? [Empty] [Keep] · cart: 1
cart sheet: 1 item: Yeezy Triple White (emptying) · cart: 1
cart sheet: empty · cart: 0
OUT
)" "$(printf '\racey' | shop --seed 1 | tail -n 4)"
check "shop hints at an unknown key" \
  "shop: Unknown key 'x'. Keys: ↑/↓ move · Enter open · / search · c cart · q or Esc quit · Ctrl-Z suspend" \
  "$(printf 'xq' | shop 2>&1 >/dev/null)"
check "shop names a function key in its hint" \
  "shop: Unknown key 'F5'." "$(printf '\033[15~q' | shop 2>&1 >/dev/null | cut -d ' ' -f 1-4)"

printf '{"products": []}' >"$work/catalog.json"
status=0
message="$(printf 'q' | shop --catalog "$work/catalog.json" 2>&1)" || status=$?
check "shop reports a bad catalog" \
  "shop: The catalog file $work/catalog.json is not a valid catalog: it lists no products. It was left untouched." \
  "$message"
check "shop exits with status 1 on a bad catalog" "1" "$status"
status=0
message="$(printf 'q' | shop --cart "$work/typo/cart.json" 2>&1)" || status=$?
check "shop refuses a cart in a folder that does not exist, with status 1" \
  "1: shop: The cart file $work/typo/cart.json cannot be created: the folder $work/typo does not exist." \
  "$status: $message"
status=0
message="$(shop --colour 2>&1 </dev/null)" || status=$?
check "shop rejects a bad option with status 2" \
  "2: shop: unknown argument '--colour'" "$status: $(printf '%s' "$message" | head -n 1)"

if [ "$failures" -ne 0 ]; then
  echo "$failures smoke check(s) failed"
  exit 1
fi
echo "All smoke checks passed"
