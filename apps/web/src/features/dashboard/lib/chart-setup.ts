import {
  ArcElement,
  CategoryScale,
  Chart,
  Filler,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

/**
 * Chart.js is tree-shaken: only what the dashboard draws is registered (doughnut arcs, the line
 * chart's scales, line, points and area fill, tooltips). Legends are drawn in HTML, not by Chart.js.
 */
Chart.register(ArcElement, CategoryScale, LinearScale, LineElement, PointElement, Filler, Tooltip);

// Charts draw text on a canvas: give them the page's font (the design token), not Chart.js's own.
const pageFont = getComputedStyle(document.documentElement).getPropertyValue('--font-family').trim();
if (pageFont) Chart.defaults.font.family = pageFont;
Chart.defaults.color = '#4b5563';
