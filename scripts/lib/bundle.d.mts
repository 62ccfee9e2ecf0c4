// Types for lib/bundle.mjs; the tests import it.
import type { Plugin } from "esbuild";

/** The module `contents` (TypeScript, its imports resolved from `resolveDir`), bundled for Node and imported. */
export declare function loadForNode(
  contents: string,
  resolveDir: string,
  plugins?: Plugin[],
): Promise<unknown>;
