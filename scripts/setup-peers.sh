#!/usr/bin/env bash
# Prepare the peer normalizers that toolschema is compared and benchmarked against.
#
#   1. bench/ dependencies (tsx, mitata, @openclaw/ai) from bench/package-lock.json.
#   2. The pi-ai normalizer (@oh-my-pi/pi-ai) from its npm tarball: it ships TypeScript
#      for Bun and `npm install` of it fails on a pinned dependency missing from the
#      registry, so only src/utils/schema is unpacked into .cache/peers/pi-ai/ and the
#      few imports it has outside that folder are served by our shim (bench/peers/shim/).
#   3. A smoke run of every pi-ai dispatcher the harness calls.
#
# Peer code lives only in the git-ignored .cache/; it is never committed.
# Idempotent: each step is skipped when its stamp matches. Set PEERS_FORCE=1 to redo all.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"
CACHE="$ROOT/.cache/peers"
SHIM="$BENCH/peers/shim"

PI_AI_VERSION=18.2.11
# Pinned so a republished or tampered tarball is refused rather than compared against.
PI_AI_INTEGRITY='sha512-lQGn2+EbG4mU9+dh2t/o3XuQ/Qfyl4oMzhhXg+qKxSMCf5APFim3Z7cEvr1edQ/VjbjAsMeae++SRzC0rd3okw=='
PI_AI_TGZ="$CACHE/oh-my-pi-pi-ai-$PI_AI_VERSION.tgz"
PI_AI_DIR="$CACHE/pi-ai"

FORCE=${PEERS_FORCE:-0}
log() { printf 'setup-peers: %s\n' "$*" >&2; }
die() { printf 'setup-peers: ERROR: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null || die "node is required"
command -v npm >/dev/null || die "npm is required"

# Content hash of files (missing files hash as empty), for the skip stamps.
hash_files() {
	node -e '
		const { createHash } = require("node:crypto");
		const fs = require("node:fs");
		const h = createHash("sha256");
		for (const f of process.argv.slice(1)) {
			h.update(f + "\0");
			if (fs.existsSync(f)) h.update(fs.readFileSync(f));
			h.update("\0");
		}
		console.log(h.digest("hex"));
	' "$@"
}

# --- 1. bench/ dependencies ---------------------------------------------------------
bench_stamp="$BENCH/node_modules/.toolschema-deps-stamp"
bench_hash=$(hash_files "$BENCH/package.json" "$BENCH/package-lock.json")
if [[ $FORCE != 1 && -d $BENCH/node_modules && -f $bench_stamp && $(cat "$bench_stamp") == "$bench_hash" ]]; then
	log "bench deps: up to date"
else
	start=$SECONDS
	if [[ -f $BENCH/package-lock.json ]]; then
		log "bench deps: npm ci"
		# @openclaw/ai declares node >=22 but its tool-schema entry runs on 20; the
		# engine mismatch is a warning, not a failure.
		(cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error >&2)
	else
		log "bench deps: npm install (no lock yet: writing bench/package-lock.json)"
		(cd "$BENCH" && npm install --no-audit --no-fund --loglevel=error >&2)
		bench_hash=$(hash_files "$BENCH/package.json" "$BENCH/package-lock.json")
	fi
	printf '%s\n' "$bench_hash" >"$bench_stamp"
	log "bench deps: done in $((SECONDS - start)) s"
fi
TSX="$BENCH/node_modules/.bin/tsx"
[[ -x $TSX ]] || die "tsx missing from bench/node_modules; remove bench/node_modules and rerun"

# --- 2. pi-ai tarball ---------------------------------------------------------------
mkdir -p "$CACHE"
tgz_ok() {
	[[ -f $PI_AI_TGZ ]] || return 1
	local got
	got=$(node -e 'const c = require("node:crypto"), fs = require("node:fs");
		console.log("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' "$PI_AI_TGZ")
	[[ $got == "$PI_AI_INTEGRITY" ]]
}
if [[ $FORCE != 1 ]] && tgz_ok; then
	log "pi-ai $PI_AI_VERSION tarball: cached"
else
	log "pi-ai $PI_AI_VERSION tarball: npm pack"
	rm -f "$PI_AI_TGZ"
	(cd "$CACHE" && npm pack "@oh-my-pi/pi-ai@$PI_AI_VERSION" --pack-destination "$CACHE" --loglevel=error >/dev/null)
	tgz_ok || die "pi-ai tarball integrity mismatch (expected $PI_AI_INTEGRITY)"
fi

# --- 3. unpack src/utils/schema + shim ----------------------------------------------
shim_files=$(cd "$SHIM" && find . -type f | LC_ALL=C sort)
tree_hash=$(cd "$SHIM" && hash_files "$PI_AI_TGZ" $shim_files "$ROOT/scripts/setup-peers.sh")
tree_stamp="$PI_AI_DIR/.toolschema-stamp"
if [[ $FORCE != 1 && -f $tree_stamp && $(cat "$tree_stamp") == "$tree_hash" ]]; then
	log "pi-ai tree: up to date ($PI_AI_DIR)"
else
	log "pi-ai tree: extracting src/utils/schema into $PI_AI_DIR"
	tmp="$CACHE/.extract.$$"
	rm -rf "$tmp" && mkdir -p "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	# Only the schema folder's TypeScript (and the licence that covers it) is unpacked.
	tar -xzf "$PI_AI_TGZ" -C "$tmp" --wildcards 'package/src/utils/schema/*.ts' 'package/LICENSE'
	[[ -f $tmp/package/src/utils/schema/index.ts ]] || die "tarball has no src/utils/schema/index.ts"
	rm -rf "$PI_AI_DIR"
	mkdir -p "$PI_AI_DIR/src/utils" "$PI_AI_DIR/src/error" "$PI_AI_DIR/node_modules/@oh-my-pi"
	mv "$tmp/package/src/utils/schema" "$PI_AI_DIR/src/utils/schema"
	mv "$tmp/package/LICENSE" "$PI_AI_DIR/LICENSE"
	# The schema folder reaches outside itself only for these; bare `@oh-my-pi/pi-utils`
	# resolves through the node_modules next to it.
	cp "$SHIM/error/index.ts" "$PI_AI_DIR/src/error/index.ts"
	cp "$SHIM/types.ts" "$PI_AI_DIR/src/types.ts"
	cp -R "$SHIM/pi-utils" "$PI_AI_DIR/node_modules/@oh-my-pi/pi-utils"
	# ESM, as upstream; written by us rather than copied, since upstream's manifest
	# points at files we do not unpack.
	printf '{\n  "name": "pi-ai-schema-peer",\n  "version": "%s",\n  "private": true,\n  "type": "module"\n}\n' \
		"$PI_AI_VERSION" >"$PI_AI_DIR/package.json"
	rm -rf "$tmp"
	trap - EXIT
	printf '%s\n' "$tree_hash" >"$tree_stamp"
fi

# --- 4. smoke run -------------------------------------------------------------------
# Cheap (one tsx start), so it runs every time: a broken cache must fail here, not as
# a confusing diff later.
"$TSX" "$BENCH/peers/check-peers.ts" || die "peer smoke run failed"
