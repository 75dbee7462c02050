// Lets the conformance suite load on Node.js 20: it imports fs.globSync (Node.js 22), which
// only its tier-check command uses. Loaded with `node --import ./node20.mjs`.
import { register } from 'node:module';
import fs from 'node:fs';
if (typeof fs.globSync !== 'function') {
  register('./node20-hooks.mjs', import.meta.url);
}
