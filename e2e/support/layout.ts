import type { Page } from '@playwright/test';

/**
 * What is wrong with the page's layout as shown now, one line per problem (none: an empty list):
 * - the page scrolls sideways (`document.scrollingElement.scrollWidth > clientWidth`);
 * - a visible input, select, textarea or button cuts its own content (`scrollWidth > clientWidth`);
 * - such a control lies outside a box that clips it: outside an `overflow: hidden/clip` ancestor,
 *   outside the scrollable area of an `overflow: auto/scroll` ancestor (inside it is fine: the user
 *   scrolls to it), or outside the page's width.
 * Controls hidden on purpose (zero size, `opacity: 0`, visually-hidden 1px clips) are not looked at.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      problems.push(
        `the page scrolls sideways: scrollWidth ${root.scrollWidth} > clientWidth ${root.clientWidth}`,
      );
    }
    const describe = (element: Element) => {
      const name =
        element.getAttribute('aria-label') ??
        (element instanceof HTMLInputElement ? element.value || element.placeholder : element.textContent) ??
        '';
      const type = element instanceof HTMLInputElement ? `[type=${element.type}]` : '';
      return `${element.tagName.toLowerCase()}${type} "${name.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    };
    const tolerance = 1;
    for (const control of document.querySelectorAll('input, select, textarea, button')) {
      const rect = control.getBoundingClientRect();
      const style = getComputedStyle(control);
      if (rect.width <= 1 || rect.height <= 1 || style.visibility === 'hidden' || style.opacity === '0')
        continue;
      if (
        control instanceof HTMLInputElement &&
        (control.type === 'radio' || control.type === 'checkbox' || control.type === 'hidden')
      ) {
        // Their scroll sizes say nothing; their boxes are checked below.
      } else if (control.scrollWidth > control.clientWidth + tolerance) {
        problems.push(
          `${describe(control)} cuts its content: scrollWidth ${control.scrollWidth} > clientWidth ${control.clientWidth}`,
        );
      }
      // Every ancestor that clips: the control must lie in what the user can see or scroll to.
      let box = { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom };
      for (let ancestor = control.parentElement; ancestor; ancestor = ancestor.parentElement) {
        if (ancestor === document.body || ancestor === document.documentElement) break;
        const ancestorStyle = getComputedStyle(ancestor);
        const clipsX = ancestorStyle.overflowX !== 'visible';
        const clipsY = ancestorStyle.overflowY !== 'visible';
        if (!clipsX && !clipsY) continue;
        const area = ancestor.getBoundingClientRect();
        const scrollsX = ancestorStyle.overflowX === 'auto' || ancestorStyle.overflowX === 'scroll';
        const scrollsY = ancestorStyle.overflowY === 'auto' || ancestorStyle.overflowY === 'scroll';
        const left = scrollsX ? area.left - ancestor.scrollLeft : area.left;
        const right = scrollsX ? left + ancestor.scrollWidth : area.right;
        const top = scrollsY ? area.top - ancestor.scrollTop : area.top;
        const bottom = scrollsY ? top + ancestor.scrollHeight : area.bottom;
        const outsideX = clipsX && (box.left < left - tolerance || box.right > right + tolerance);
        const outsideY = clipsY && (box.top < top - tolerance || box.bottom > bottom + tolerance);
        if (outsideX || outsideY) {
          const where = typeof ancestor.className === 'string' ? ancestor.className.split(' ')[0] : '';
          problems.push(
            `${describe(control)} is clipped by <${ancestor.tagName.toLowerCase()} class="${where}">: ` +
              `control ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.top)}–${Math.round(box.bottom)}, ` +
              `room ${Math.round(left)}–${Math.round(right)} × ${Math.round(top)}–${Math.round(bottom)}`,
          );
          break;
        }
        // Further out, what matters is where this scroll box (the user scrolls the control into it) lies.
        if (scrollsX || scrollsY)
          box = { left: area.left, right: area.right, top: area.top, bottom: area.bottom };
      }
      if (box.right > root.scrollWidth + tolerance || box.left < -tolerance) {
        problems.push(
          `${describe(control)} is outside the page: ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
      }
    }
    return problems;
  });
}

/**
 * The tables that scroll sideways without a word of it, one line each (none: an empty list). A table
 * wider than its frame must say how many columns lie beyond the frame's edges (the shared
 * `ColumnsOutOfView` line, `p[data-columns-left]` / `p[data-columns-right]`, beside the frame): at 1000
 * and 1440 px the lists' last columns and the overview's "All" column simply ended at the frame's edge,
 * as if there were no more (issue 43 item 8).
 */
export function unmarkedHiddenColumns(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const scrolls = (element: Element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    for (const table of document.querySelectorAll('table')) {
      let frame = table.parentElement;
      while (frame && frame !== document.body && !scrolls(frame)) frame = frame.parentElement;
      if (!frame || frame === document.body) continue;
      if (frame.getBoundingClientRect().width <= 1 || frame.scrollWidth <= frame.clientWidth + 1) continue;
      const scope = frame.parentElement?.parentElement ?? document.body;
      const hint = [...scope.querySelectorAll('p[data-columns-left], p[data-columns-right]')].find(
        (element) => element.getBoundingClientRect().height > 0 && (element.textContent ?? '').trim() !== '',
      );
      if (!hint) {
        const name = frame.getAttribute('aria-label') ?? table.querySelector('caption')?.textContent ?? '';
        problems.push(
          `a table scrolls sideways (${frame.scrollWidth} in ${frame.clientWidth} px) with no word of the ` +
            `columns beyond its edge: "${name.trim().slice(0, 40)}"`,
        );
      }
    }
    return problems;
  });
}
