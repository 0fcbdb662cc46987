/**
 * Counts item renders for the performance test (a keystroke must not re-render untouched items) and for
 * profiling by hand. Nothing listens in normal use; the cost is one property read per item render.
 */
export const renderProbe: { onItemRender: ((path: string) => void) | null } = { onItemRender: null };
