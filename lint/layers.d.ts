// Types for ./layers.js, which ESLint loads as plain JavaScript and test/node/layers.test.ts imports.
import type { Linter, ESLint } from "eslint";

export declare const LAYERS: readonly { name: string; rank: number; paths: readonly string[] }[];
export declare const layersPlugin: ESLint.Plugin;
export declare const layersConfig: Linter.Config;
