/**
 * Loads a screen's chunk (or the signed-in shell's) with the styles most screens share (screen-styles.ts), requested
 * first so that its stylesheet comes before the screen's own. /login is loaded without it: its first load carries only
 * the styles it uses (ADR 0040).
 */
export function loadScreen<M>(load: () => Promise<M>): Promise<M> {
  const styles = import('./screen-styles');
  return Promise.all([styles, load()]).then(([, module]) => module);
}
