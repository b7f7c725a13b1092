/** Types of eslint-layers.js (plain JS so that eslint.config.js can import it). */
import type { Linter } from 'eslint';

export interface LayerPackage {
  name: string;
  why: string;
  /** The files (globs) the package is narrowed to; absent: the whole layer. */
  only?: string[];
}

export interface Layer {
  folder: string;
  files: string[];
  mayImport: string[];
  packages: LayerPackage[];
  builtins: string[];
  literalDynamicImports?: boolean;
}

export const LAYERS: Layer[];
/** The renderer files that may call `bridge.invoke` (the bridge and the data modules). */
export const BRIDGE_CALLERS: string[];
export function forbiddenRelativePatterns(layer: Layer): string[];
export function forbiddenPackagePattern(layer: Layer, file?: string | null): string;
export function layerConfigs(): Linter.Config[];
export function tableCells(layer: Layer): { folder: string; mayImport: string; packages: string };
