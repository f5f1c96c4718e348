// The edge entry imports ./core.wasm as a precompiled module; ship it beside dist/.
import { copyFileSync } from 'node:fs';

copyFileSync(new URL('../build/core.wasm', import.meta.url), new URL('../dist/core.wasm', import.meta.url));
