import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

// The one axe-core configuration of the end-to-end tests (tests/accessibility.spec.ts over every
// route; feature specs over what only a flow opens, such as the query thread panel).

/**
 * axe's experimental rules are off by default; they are on here. One of them is WCAG 2.5.3 "label in
 * name" (label-content-name-mismatch): a control named by aria-label must include its visible text.
 */
const EXPERIMENTAL_RULES = [
  'css-orientation-lock',
  'focus-order-semantics',
  'label-content-name-mismatch',
  'p-as-heading',
  'table-fake-caption',
  'td-has-header',
];

/** The violations on the page as shown now, one readable line per rule and element. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    // axe in the page itself (axe.run), as before axe 4.3. The default runs axe in every frame, then
    // opens a blank page, injects axe again and merges the frames' results there: two and a half
    // times the time a page (1.1 s against 0.45 s on the subject overview), for frames the app does
    // not have. A frame it someday has is not skipped silently: axe's frame-tested rule reports it.
    .setLegacyMode(true)
    // Not content, so not checked: Radix's focus guards, invisible tabindex=0 sentinels at the ends of
    // the page while a popup or dialog is open, which hand the focus straight back to it. The
    // experimental focus-order-semantics rule takes them for focusable elements without a role.
    .exclude('[data-radix-focus-guard]')
    .options({
      rules: Object.fromEntries(EXPERIMENTAL_RULES.map((id) => [id, { enabled: true }])),
      // Only the violations are read: axe still runs every rule on every element, but it no longer
      // gathers (and sends back) every passing element of every rule, which on a casebook form is
      // thousands of nodes with their HTML.
      resultTypes: ['violations'],
    })
    .analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `[${violation.impact}] ${violation.id} at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
    ),
  );
}
