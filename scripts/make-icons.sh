#!/usr/bin/env bash
# Renders the PNG app icons from public/icon.svg with Debian's Chromium (run by hand when the icon changes; the PNGs are
# committed). The maskable icon fills its square and keeps the truck inside the central 80% safe zone.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
glyph='<path d="M10 22h26v20H10zM36 28h9l7 7v7H36z" fill="#fff"/><circle cx="19" cy="44" r="5" fill="#0f766e" stroke="#fff" stroke-width="3"/><circle cx="44" cy="44" r="5" fill="#0f766e" stroke="#fff" stroke-width="3"/>'
render() { # svg size out
  printf '<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:%spx;height:%spx}</style>%s' "$2" "$2" "$1" >"$tmp/icon.html"
  /usr/bin/chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
    --window-size="$2,$2" --screenshot="$3" "file://$tmp/icon.html" >/dev/null 2>&1
}
plain=$(cat public/icon.svg)
maskable="<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\"><rect width=\"64\" height=\"64\" fill=\"#0f766e\"/><g transform=\"translate(9.6 9.6) scale(0.7)\">$glyph</g></svg>"
render "$plain" 192 public/icon-192.png
render "$plain" 512 public/icon-512.png
render "$maskable" 512 public/icon-maskable-512.png
rm -rf "$tmp"
ls -l public/*.png
