// Loaded with `node --import`: from here on, `import ... from 'electron'` gets the stand-in.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
