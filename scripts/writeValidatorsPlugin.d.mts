import type { Plugin } from 'vite';

/** The Vite plugin serving `virtual:write-validators` (./writeValidatorsPlugin.mjs). */
export declare function writeValidators(): Plugin;
