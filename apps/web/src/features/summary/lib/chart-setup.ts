import { BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

/**
 * Chart.js is tree-shaken: only what the summary draws is registered (bars, their scales, tooltips
 * and legend), as the dashboard and the reports do for theirs; registering twice is harmless.
 */
Chart.register(BarElement, CategoryScale, LinearScale, Tooltip, Legend);

// Charts draw text on a canvas: give them the page's font (the design token), not Chart.js's own.
const pageFont = getComputedStyle(document.documentElement).getPropertyValue('--font-family').trim();
if (pageFont) Chart.defaults.font.family = pageFont;
Chart.defaults.color = '#4b5563';
