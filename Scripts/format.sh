#!/usr/bin/env bash
# Formats every Swift file in place with the checked-in .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive --parallel \
  Package.swift Sources Tests Sample Tools Benchmarks/Package.swift Benchmarks/Benchmarks
