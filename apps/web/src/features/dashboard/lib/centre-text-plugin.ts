import { Chart, type ChartType, type Plugin } from 'chart.js';

export interface CentreTextOptions {
  /** The big line (the group's total). */
  total: string;
  /** The small line under it (randomized subjects); empty: the total alone, centred. */
  randomized: string;
}

declare module 'chart.js' {
  interface PluginOptionsByType<TType extends ChartType> {
    centreText?: CentreTextOptions;
  }
}

/**
 * Writes the doughnut's total and randomized count in its hole. Drawn on the canvas after the
 * rings, so the tooltip (drawn last) stays on top of it; the sizes follow the chart's size.
 */
export const centreTextPlugin: Plugin<'doughnut', CentreTextOptions> = {
  id: 'centreText',
  afterDatasetsDraw(chart, _args, options) {
    if (!options?.total) return;
    const { ctx, chartArea } = chart;
    const x = (chartArea.left + chartArea.right) / 2;
    const y = (chartArea.top + chartArea.bottom) / 2;
    const size = Math.min(chartArea.width, chartArea.height);
    // The hole is 70 % of the diameter; the text keeps to 75 % of the hole's width.
    const room = size * 0.7 * 0.75;
    const family = Chart.defaults.font.family;
    ctx.save();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    /** The font size (px) at which `text` fits the room, up to `preferred`. */
    const fit = (text: string, weight: number, preferred: number) => {
      ctx.font = `${weight} ${preferred}px ${family}`;
      const width = ctx.measureText(text).width;
      return Math.max(9, Math.floor(width > room ? (preferred * room) / width : preferred));
    };
    const big = fit(options.total, 700, Math.round(Math.min(22, Math.max(14, size * 0.13))));
    ctx.fillStyle = '#111827';
    ctx.font = `700 ${big}px ${family}`;
    if (!options.randomized) {
      ctx.fillText(options.total, x, y);
      ctx.restore();
      return;
    }
    const small = fit(options.randomized, 400, Math.round(Math.min(13, Math.max(10, size * 0.075))));
    ctx.font = `700 ${big}px ${family}`;
    ctx.fillText(options.total, x, y - small * 0.7);
    ctx.fillStyle = '#4b5563';
    ctx.font = `400 ${small}px ${family}`;
    ctx.fillText(options.randomized, x, y + big * 0.65);
    ctx.restore();
  },
};
