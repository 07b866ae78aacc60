// A module customization hook: the one change to how the built bundle loads is where 'electron' comes from.
const STAND_IN = new URL('./electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true };
  return nextResolve(specifier, context);
}
