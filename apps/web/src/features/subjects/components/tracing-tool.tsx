import type { Tracing, TracingLine, TracingPoint, TracingShape } from '@cdms/study';
import { type KeyboardEvent, type PointerEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './tympanic-photo.module.css';

// Issue 19 item 2: the outlines drawn over the eardrum photo, as an SVG the size of the image. Points are
// image-relative (0..1); the SVG's user space is the photo's proportions (width = aspect × 1000, height
// 1000), so handles stay round at any zoom. A polygon grows by a click on the photo; every handle drags
// with the pointer and moves with the arrow keys (Shift: larger steps); Delete removes a polygon's point.

export type OutlineKey = 'membrane' | 'perforation';

/** An outline while it is drawn: a polygon may have fewer than three points for a while. */
export type DraftShape =
  | { kind: 'polygon'; points: TracingPoint[] }
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number };

export type DraftTracing = Record<OutlineKey, DraftShape | null> & {
  /** A diameter drawn by hand across each outline; when both are drawn they give the diameter %. */
  lines: Record<OutlineKey, TracingLine | null>;
};

/** A new diameter line across the middle of the photo (membrane) or of the perforation's outline. */
export function defaultLine(outline: OutlineKey, draft: DraftTracing): TracingLine {
  const shape = draft[outline];
  if (shape?.kind === 'ellipse') {
    return [
      [clamp(shape.cx - shape.rx), shape.cy],
      [clamp(shape.cx + shape.rx), shape.cy],
    ];
  }
  return outline === 'membrane'
    ? [
        [0.3, 0.5],
        [0.7, 0.5],
      ]
    : [
        [0.45, 0.55],
        [0.55, 0.55],
      ];
}

const HEIGHT = 1000;
const STEP = 0.005;
const BIG_STEP = 0.02;

const clamp = (value: number, min = 0, max = 1) => Math.min(max, Math.max(min, value));

export function draftFromTracing(tracing: Tracing | null): DraftTracing {
  const copy = (shape: TracingShape | null): DraftShape | null =>
    shape === null
      ? null
      : shape.kind === 'polygon'
        ? { kind: 'polygon', points: [...shape.points] }
        : { ...shape };
  return {
    membrane: copy(tracing?.membrane ?? null),
    perforation: copy(tracing?.perforation ?? null),
    lines: { membrane: tracing?.membraneDiameter ?? null, perforation: tracing?.perforationDiameter ?? null },
  };
}

/** The tracing to store (incomplete polygons left out), or null when nothing is drawn. */
export function tracingFromDraft(draft: DraftTracing, aspect: number): Tracing | null {
  const finish = (shape: DraftShape | null): TracingShape | null => {
    if (shape === null) return null;
    if (shape.kind === 'polygon')
      return shape.points.length >= 3 ? { kind: 'polygon', points: shape.points } : null;
    return shape;
  };
  const membrane = finish(draft.membrane);
  const perforation = finish(draft.perforation);
  const { lines } = draft;
  if (membrane === null && perforation === null && lines.membrane === null && lines.perforation === null)
    return null;
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    version: 1,
    aspect: round(clamp(aspect, 0.1, 10)),
    membrane,
    perforation,
    ...(lines.membrane ? { membraneDiameter: lines.membrane } : {}),
    ...(lines.perforation ? { perforationDiameter: lines.perforation } : {}),
  };
}

interface TracingToolProps {
  draft: DraftTracing;
  aspect: number;
  active: OutlineKey;
  readOnly: boolean;
  onChange: (draft: DraftTracing) => void;
}

type Handle =
  | { outline: OutlineKey; kind: 'point'; index: number }
  | { outline: OutlineKey; kind: 'lineEnd'; index: 0 | 1 }
  | { outline: OutlineKey; kind: 'center' | 'rx' | 'ry' };

export function TracingTool({ draft, aspect, active, readOnly, onChange }: TracingToolProps) {
  const { t } = useTranslation('subjects');
  const svgRef = useRef<SVGSVGElement>(null);
  const dragging = useRef<Handle | null>(null);
  const width = aspect * HEIGHT;

  const toImage = (event: { clientX: number; clientY: number }): TracingPoint | null => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return null;
    return [clamp((event.clientX - rect.left) / rect.width), clamp((event.clientY - rect.top) / rect.height)];
  };

  const moveHandle = (handle: Handle, to: TracingPoint) => {
    if (handle.kind === 'lineEnd') {
      const line = draft.lines[handle.outline];
      if (!line) return;
      const next: TracingLine = handle.index === 0 ? [to, line[1]] : [line[0], to];
      onChange({ ...draft, lines: { ...draft.lines, [handle.outline]: next } });
      return;
    }
    const shape = draft[handle.outline];
    if (!shape) return;
    let next: DraftShape;
    if (shape.kind === 'polygon' && handle.kind === 'point') {
      const points = [...shape.points];
      points[handle.index] = to;
      next = { kind: 'polygon', points };
    } else if (shape.kind === 'ellipse' && handle.kind === 'center') {
      next = { ...shape, cx: to[0], cy: to[1] };
    } else if (shape.kind === 'ellipse' && handle.kind === 'rx') {
      next = { ...shape, rx: clamp(Math.abs(to[0] - shape.cx), 0.005, 1) };
    } else if (shape.kind === 'ellipse' && handle.kind === 'ry') {
      next = { ...shape, ry: clamp(Math.abs(to[1] - shape.cy), 0.005, 1) };
    } else {
      return;
    }
    onChange({ ...draft, [handle.outline]: next });
  };

  const handlePosition = (handle: Handle): TracingPoint | null => {
    if (handle.kind === 'lineEnd') return draft.lines[handle.outline]?.[handle.index] ?? null;
    const shape = draft[handle.outline];
    if (!shape) return null;
    if (shape.kind === 'polygon')
      return handle.kind === 'point' ? (shape.points[handle.index] ?? null) : null;
    if (handle.kind === 'center') return [shape.cx, shape.cy];
    if (handle.kind === 'rx') return [shape.cx + shape.rx, shape.cy];
    if (handle.kind === 'ry') return [shape.cx, shape.cy + shape.ry];
    return null;
  };

  const onBackgroundDown = (event: PointerEvent<SVGRectElement>) => {
    if (readOnly || event.button !== 0) return;
    const shape = draft[active];
    if (shape?.kind !== 'polygon') return;
    const point = toImage(event);
    if (!point) return;
    onChange({ ...draft, [active]: { kind: 'polygon', points: [...shape.points, point] } });
  };

  const onHandleDown = (handle: Handle) => (event: PointerEvent<SVGCircleElement>) => {
    if (readOnly) return;
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    dragging.current = handle;
  };
  const onHandleMove = (event: PointerEvent<SVGCircleElement>) => {
    const handle = dragging.current;
    if (!handle) return;
    const point = toImage(event);
    if (point) moveHandle(handle, point);
  };
  const onHandleUp = (event: PointerEvent<SVGCircleElement>) => {
    dragging.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onHandleKey = (handle: Handle) => (event: KeyboardEvent<SVGCircleElement>) => {
    if (readOnly) return;
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      const at = handlePosition(handle);
      if (at) moveHandle(handle, [clamp(at[0] + move[0]), clamp(at[1] + move[1])]);
      return;
    }
    const shape = draft[handle.outline];
    if (
      (event.key === 'Delete' || event.key === 'Backspace') &&
      handle.kind === 'point' &&
      shape?.kind === 'polygon'
    ) {
      event.preventDefault();
      onChange({
        ...draft,
        [handle.outline]: { kind: 'polygon', points: shape.points.filter((_, i) => i !== handle.index) },
      });
    }
  };

  const px = (p: TracingPoint) => `${p[0] * width},${p[1] * HEIGHT}`;
  const outlineName = (outline: OutlineKey) => t(`photo.outline.${outline}`);

  const renderOutline = (outline: OutlineKey) => {
    const shape = draft[outline];
    const line = draft.lines[outline];
    if (!shape && !line) return null;
    const handles: { handle: Handle; at: TracingPoint; label: string }[] = [];
    let body: React.ReactNode = null;
    if (line) {
      line.forEach((at, index) => {
        handles.push({
          handle: { outline, kind: 'lineEnd', index: index as 0 | 1 },
          at,
          label: t('photo.handle.lineEnd', { outline: outlineName(outline), number: index + 1 }),
        });
      });
    }
    if (!shape) {
      // only a diameter line
    } else if (shape.kind === 'polygon') {
      body =
        shape.points.length >= 3 ? (
          <polygon className={styles.outlineShape} points={shape.points.map(px).join(' ')} />
        ) : (
          <polyline className={styles.outlineShape} points={shape.points.map(px).join(' ')} />
        );
      shape.points.forEach((at, index) => {
        handles.push({
          handle: { outline, kind: 'point', index },
          at,
          label: t('photo.handle.point', { outline: outlineName(outline), number: index + 1 }),
        });
      });
    } else {
      body = (
        <ellipse
          className={styles.outlineShape}
          cx={shape.cx * width}
          cy={shape.cy * HEIGHT}
          rx={shape.rx * width}
          ry={shape.ry * HEIGHT}
        />
      );
      handles.push(
        {
          handle: { outline, kind: 'center' },
          at: [shape.cx, shape.cy],
          label: t('photo.handle.center', { outline: outlineName(outline) }),
        },
        {
          handle: { outline, kind: 'rx' },
          at: [shape.cx + shape.rx, shape.cy],
          label: t('photo.handle.width', { outline: outlineName(outline) }),
        },
        {
          handle: { outline, kind: 'ry' },
          at: [shape.cx, shape.cy + shape.ry],
          label: t('photo.handle.height', { outline: outlineName(outline) }),
        },
      );
    }
    return (
      <g className={styles.outline} data-outline={outline} data-active={outline === active || undefined}>
        {body}
        {line ? (
          <line
            className={styles.diameterLine}
            x1={line[0][0] * width}
            y1={line[0][1] * HEIGHT}
            x2={line[1][0] * width}
            y2={line[1][1] * HEIGHT}
          />
        ) : null}
        {readOnly
          ? null
          : handles.map(({ handle, at, label }) => (
              // biome-ignore lint/a11y/useSemanticElements: an SVG handle cannot be a <button>; it takes focus and keys.
              <circle
                key={`${handle.kind}-${'index' in handle ? handle.index : ''}`}
                data-handle={handle.kind}
                className={styles.handle}
                cx={at[0] * width}
                cy={at[1] * HEIGHT}
                r={outline === active ? 11 : 8}
                role="button"
                tabIndex={0}
                aria-label={label}
                onPointerDown={onHandleDown(handle)}
                onPointerMove={onHandleMove}
                onPointerUp={onHandleUp}
                onPointerCancel={onHandleUp}
                onKeyDown={onHandleKey(handle)}
              />
            ))}
      </g>
    );
  };

  return (
    <svg
      ref={svgRef}
      className={styles.overlay}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      preserveAspectRatio="none"
      aria-label={t('photo.overlayLabel')}
      data-testid="tracing-overlay"
    >
      <title>{t('photo.overlayLabel')}</title>
      <rect
        className={styles.hitArea}
        data-drawing={!readOnly && draft[active]?.kind === 'polygon' ? 'polygon' : undefined}
        x={0}
        y={0}
        width={width}
        height={HEIGHT}
        onPointerDown={onBackgroundDown}
      />
      {renderOutline('membrane')}
      {renderOutline('perforation')}
    </svg>
  );
}
