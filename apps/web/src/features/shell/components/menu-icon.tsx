import type { MenuIcon as MenuIconName } from '../lib/menu.ts';

/** Line icons for the side menu (24×24, stroked with the text colour). */
const iconPaths: Record<MenuIconName | 'taskListButton' | 'chevron' | 'fold', string> = {
  dashboard: 'M4 4h7v9H4zM13 4h7v5h-7zM13 11h7v9h-7zM4 15h7v5H4z',
  monitoring: 'M3 12h4l3-7 4 14 3-7h4',
  safety: 'M12 3l9 16H3zM12 9v5M12 16.5v.5',
  subjects:
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M17 11a3 3 0 1 0 0-6M22 21a6 6 0 0 0-4-5.6',
  notice: 'M4 10v4h3l6 5V5L7 10zM17 9a4 4 0 0 1 0 6',
  guideline: 'M5 4h11l3 3v13H5zM9 9h6M9 13h6M9 17h4',
  alarmLog: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
  training: 'M2 9l10-5 10 5-10 5zM6 11v5c3 2 9 2 12 0v-5',
  query: 'M4 5h16v11H9l-5 4zM12 8.5a1.8 1.8 0 0 1 0 3.5v1M12 14.5v.5',
  report: 'M6 3h9l4 4v14H6zM9 17v-3M12 17v-6M15 17v-4',
  sdv: 'M4 12l5 5L20 6',
  review: 'M3 5h18v14H3zM3 10h18M3 15h18M9 10v9M14 7.5l1.5 1.5 3-3',
  freezing: 'M12 2v20M4 7l16 10M4 17L20 7',
  summary: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  lab: 'M9 3h6M10 3v6l-5 10a1.5 1.5 0 0 0 1.4 2h11.2a1.5 1.5 0 0 0 1.4-2L14 9V3M7.5 15h9',
  data: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  randomization: 'M4 4h16v16H4zM8.5 8.5h.01M15.5 8.5h.01M12 12h.01M8.5 15.5h.01M15.5 15.5h.01',
  audit: 'M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5',
  design: 'M3 5h18v14H3zM3 10h18M9 5v14M15 5v14',
  taskList: 'M9 6h11M9 12h11M9 18h11M4 6h.5M4 12h.5M4 18h.5',
  taskEndList: 'M4 4h16v5H4zM6 9v11h12V9M10 13h4',
  taskListButton: 'M3 7l9-4 9 4-9 4zM3 12l9 4 9-4M3 17l9 4 9-4',
  chevron: 'M9 6l6 6-6 6',
  fold: 'M15 6l-6 6 6 6',
};

export function MenuIcon({ name, className }: { name: keyof typeof iconPaths; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <path d={iconPaths[name]} />
    </svg>
  );
}
