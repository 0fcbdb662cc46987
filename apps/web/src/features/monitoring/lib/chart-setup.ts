import {
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

/**
 * Chart.js is tree-shaken: only what a signal's chart draws is registered (bars, a series' line and
 * points, their scales, tooltips and legend). The same approach as the dashboard's and the reports',
 * kept here since features do not import each other; registering twice is harmless.
 */
Chart.register(BarElement, CategoryScale, LinearScale, LineElement, PointElement, Tooltip, Legend);

// Charts draw text on a canvas: give them the page's font (the design token), not Chart.js's own.
const pageFont = getComputedStyle(document.documentElement).getPropertyValue('--font-family').trim();
if (pageFont) Chart.defaults.font.family = pageFont;
Chart.defaults.color = '#4b5563';
