import type { CollectionDiff, DefinitionDiff, ElementChange, LayoutDiff } from './diff-definitions.ts';

/** How many elements of one kind were added, removed, changed (in a field or within) and moved. */
export interface DiffCount {
  added: number;
  removed: number;
  changed: number;
  moved: number;
}

export type DiffSummary = Record<'visits' | 'forms' | 'items' | 'codeLists' | 'checks', DiffCount>;

/**
 * The counts of a diff per kind of element. They count what the tree holds: the items and checks of a
 * form added or removed as a whole are counted with the form, not one by one. A kept element that both
 * moved and changed counts once in each.
 */
export function summarizeDiff(diff: Omit<DefinitionDiff, 'summary' | 'formLabels'>): DiffSummary {
  const items = emptyCount();
  const checks = emptyCount();
  for (const form of diff.forms.changed) {
    addLayout(items, form.layout);
    for (const variant of form.variants.changed) addLayout(items, variant.layout);
    add(
      checks,
      countOf(form.checks, (change) => change.fields.length > 0),
    );
  }
  return {
    visits: countOf(
      diff.visits,
      (change) =>
        change.fields.length > 0 ||
        change.forms.added.length + change.forms.removed.length + change.forms.moved.length > 0,
    ),
    forms: countOf(diff.forms, (change) => formHasChange(change)),
    items,
    codeLists: countOf(
      diff.codeLists,
      (change) =>
        change.fields.length > 0 ||
        change.codes.added.length + change.codes.removed.length + change.codes.changed.length > 0,
    ),
    checks,
  };
}

function emptyCount(): DiffCount {
  return { added: 0, removed: 0, changed: 0, moved: 0 };
}

function add(total: DiffCount, count: DiffCount): void {
  total.added += count.added;
  total.removed += count.removed;
  total.changed += count.changed;
  total.moved += count.moved;
}

function addLayout(total: DiffCount, layout: LayoutDiff): void {
  add(
    total,
    countOf(layout.items, (change) => change.fields.length > 0),
  );
}

/** `changedWithin` says whether a kept element differs in more than its place. */
function countOf<T, C extends ElementChange<T>>(
  diff: CollectionDiff<T, C>,
  changedWithin: (change: C) => boolean,
): DiffCount {
  return {
    added: diff.added.length,
    removed: diff.removed.length,
    changed: diff.changed.filter(changedWithin).length,
    moved: diff.changed.filter((change) => change.moved !== undefined).length,
  };
}

function formHasChange(change: DefinitionDiff['forms']['changed'][number]): boolean {
  const nested = [
    change.layout.sections,
    change.layout.items,
    change.variants,
    change.checks,
    change.outcomes,
  ];
  return (
    change.fields.length > 0 ||
    nested.some((diff) => diff.added.length + diff.removed.length + diff.changed.length > 0)
  );
}
