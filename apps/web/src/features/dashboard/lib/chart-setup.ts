import { ArcElement, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

/**
 * Chart.js is tree-shaken: only what the dashboard draws is registered (doughnut arcs, the monthly
 * chart's scales and bars, tooltips). Legends are drawn in HTML, not by Chart.js.
 */
Chart.register(ArcElement, BarElement, CategoryScale, LinearScale, Tooltip);

// Charts draw text on a canvas: give them the page's font (the design token), not Chart.js's own.
const pageFont = getComputedStyle(document.documentElement).getPropertyValue('--font-family').trim();
if (pageFont) Chart.defaults.font.family = pageFont;
Chart.defaults.color = '#4b5563';
