// Types of chromium.cjs (hand-written; keep both in step).

/** Runs scripts/ensure-chromium.sh (installs Debian's chromium when missing) and returns its path. */
export declare function ensureChromium(): string;
/** Flags for a quiet headless Chromium that contacts nothing on its own. */
export declare const CHROMIUM_ARGS: string[];
